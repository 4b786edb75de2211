/* SPDX-License-Identifier: GPL-2.0 */
/* One test body, two runners: the macros below map onto KUnit in the
 * kernel and onto cmocka on the host, so the cases are written once.
 *
 * Comparisons are done on s64 on both sides, so mixed signedness never
 * changes the meaning of a check. Under cmocka an EXPECT stops the test
 * like an ASSERT: cmocka has no non-fatal check.
 */
#ifndef _VLC_TEST_H
#define _VLC_TEST_H

#ifdef __KERNEL__

#include <kunit/test.h>
#include <linux/string.h>

#include "../vlc_compat.h"

/* A case's context: helpers that check things take it like a case */
#define VLC_TEST_CTX		struct kunit *vlc_test_ctx
#define VLC_TEST(name)		static void name(VLC_TEST_CTX)
#define VLC_TEST_CASE(name)	KUNIT_CASE(name),
/* KUnit's speed attribute: tests/kunit/run.sh says where these are left out */
#define VLC_TEST_CASE_SLOW(name)	KUNIT_CASE_SLOW(name),
#define VLC_TEST_CASES_END	{}
#define VLC_TEST_CASE_TYPE	struct kunit_case
/* The suite of the table SUITE_test_cases, called SUITE */
#define VLC_TEST_SUITE(suite)						\
	static struct kunit_suite suite##_test_suite = {		\
		.name = #suite,						\
		.test_cases = suite##_test_cases,			\
	}

#define VLC_EXPECT_TRUE(c)	KUNIT_EXPECT_TRUE(vlc_test_ctx, c)
#define VLC_ASSERT_TRUE(c)	KUNIT_ASSERT_TRUE(vlc_test_ctx, c)
#define VLC_EXPECT_CMP(a, op, b)					\
	do {								\
		s64 _a = (a), _b = (b);					\
		KUNIT_EXPECT_TRUE_MSG(vlc_test_ctx, _a op _b,		\
				      "%s %s %s: %lld vs %lld",		\
				      #a, #op, #b, _a, _b);		\
	} while (0)
#define VLC_ASSERT_CMP(a, op, b)					\
	do {								\
		s64 _a = (a), _b = (b);					\
		KUNIT_ASSERT_TRUE_MSG(vlc_test_ctx, _a op _b,		\
				      "%s %s %s: %lld vs %lld",		\
				      #a, #op, #b, _a, _b);		\
	} while (0)
#define VLC_EXPECT_STR_HAS(s, sub)					\
	do {								\
		const char *_s = (s), *_sub = (sub);			\
		KUNIT_EXPECT_TRUE_MSG(vlc_test_ctx, _s && strstr(_s, _sub),	\
				      "\"%s\" lacks \"%s\"",		\
				      _s ? _s : "(null)", _sub);		\
	} while (0)
#define VLC_TEST_LOG(fmt, ...)	kunit_info(vlc_test_ctx, fmt, ##__VA_ARGS__)

#else /* host, cmocka */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define VLC_TEST_CTX		void **vlc_test_ctx
#define VLC_TEST(name)		static void name(VLC_TEST_CTX)
#define VLC_TEST_CASE(name)	cmocka_unit_test(name),
#define VLC_TEST_CASE_SLOW(name)	cmocka_unit_test(name),
#define VLC_TEST_CASES_END
/* VLC_TEST_CASE_TYPE is cmocka's case struct; tests/host/Makefile passes
 * it with -D, as its CamelCase name is not ours to change.
 */

#define VLC_FAIL(fmt, ...)						\
	do {								\
		print_error("%s:%d: " fmt "\n", __FILE__, __LINE__,	\
			    ##__VA_ARGS__);				\
		fail();							\
	} while (0)
#define VLC_EXPECT_TRUE(c)						\
	do {								\
		(void)vlc_test_ctx;					\
		if (!(c))						\
			VLC_FAIL("expected %s", #c);			\
	} while (0)
#define VLC_ASSERT_TRUE(c)	VLC_EXPECT_TRUE(c)
#define VLC_EXPECT_CMP(a, op, b)					\
	do {								\
		long long _a = (s64)(a), _b = (s64)(b);			\
		(void)vlc_test_ctx;					\
		if (!(_a op _b))					\
			VLC_FAIL("%s %s %s: %lld vs %lld", #a, #op, #b,	\
				 _a, _b);				\
	} while (0)
#define VLC_ASSERT_CMP(a, op, b)	VLC_EXPECT_CMP(a, op, b)
#define VLC_EXPECT_STR_HAS(s, sub)					\
	do {								\
		const char *_s = (s), *_sub = (sub);			\
		(void)vlc_test_ctx;					\
		if (!_s || !strstr(_s, _sub))				\
			VLC_FAIL("\"%s\" lacks \"%s\"",			\
				 _s ? _s : "(null)", _sub);		\
	} while (0)
#define VLC_TEST_LOG(fmt, ...)						\
	do {								\
		(void)vlc_test_ctx;					\
		print_message("    " fmt "\n", ##__VA_ARGS__);		\
	} while (0)

/* A host runner's groups: the table SUITE_test_cases, called SUITE */
struct vlc_test_group {
	const char *name;
	VLC_TEST_CASE_TYPE *cases;
	size_t n;
};

#define VLC_TEST_GROUP(suite)						\
	{ #suite, suite##_test_cases, ARRAY_SIZE(suite##_test_cases) }

/* Run @n groups; one line "LAYER: N passed, N failed" for them all.
 * VLC_TEST_FILTER=pattern runs the matching cases only.
 */
static inline int vlc_test_main(const char *layer,
				const struct vlc_test_group *g, size_t n)
{
	int cases = 0, failed = 0;
	size_t i;

	if (getenv("VLC_TEST_FILTER"))
		cmocka_set_test_filter(getenv("VLC_TEST_FILTER"));
	for (i = 0; i < n; i++) {
		failed += _cmocka_run_group_tests(g[i].name, g[i].cases,
						  g[i].n, NULL, NULL);
		cases += g[i].n;
	}
	printf("%s: %d passed, %d failed\n", layer, cases - failed, failed);
	return failed ? 1 : 0;
}

#endif /* __KERNEL__ */

#define VLC_EXPECT_EQ(a, b)	VLC_EXPECT_CMP(a, ==, b)
#define VLC_EXPECT_NE(a, b)	VLC_EXPECT_CMP(a, !=, b)
#define VLC_EXPECT_LE(a, b)	VLC_EXPECT_CMP(a, <=, b)
#define VLC_EXPECT_LT(a, b)	VLC_EXPECT_CMP(a, <, b)
#define VLC_EXPECT_GE(a, b)	VLC_EXPECT_CMP(a, >=, b)
#define VLC_EXPECT_GT(a, b)	VLC_EXPECT_CMP(a, >, b)
#define VLC_ASSERT_EQ(a, b)	VLC_ASSERT_CMP(a, ==, b)
#define VLC_ASSERT_LE(a, b)	VLC_ASSERT_CMP(a, <=, b)
#define VLC_ASSERT_GE(a, b)	VLC_ASSERT_CMP(a, >=, b)

#endif /* _VLC_TEST_H */
