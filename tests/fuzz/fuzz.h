/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the libFuzzer targets of the pure cores: a reader
 * that turns the fuzz input into values (zeros once it is used up, so
 * every input is a valid program) and the invariant check that aborts.
 */
#ifndef _VLC_FUZZ_H
#define _VLC_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

/* An invariant of the code under test: a violation is a finding. */
#define FZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant '%s': ",	\
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* Known findings (crashes/README): unless built with -DFZ_STRICT (make
 * repro), inputs that reach one are steered around it, so that fuzzing
 * goes on looking for new ones. Each use goes when its bug is fixed.
 */
#ifdef FZ_STRICT
#define FZ_AVOID(cond)	((void)(cond), false)
#else
#define FZ_AVOID(cond)	(cond)
#endif

/* libFuzzer's entry point, under a kernel-style name */
int fz_one_input(const u8 *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

struct fz {
	const u8 *p;
	size_t n;
};

static inline bool fz_left(const struct fz *f)
{
	return f->n > 0;
}

static inline u8 fz_u8(struct fz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static inline u16 fz_u16(struct fz *f)
{
	u16 v = fz_u8(f);

	return v | (u16)fz_u8(f) << 8;
}

static inline u32 fz_u32(struct fz *f)
{
	u32 v = fz_u16(f);

	return v | (u32)fz_u16(f) << 16;
}

/* FZ_VERBOSE=1 in the environment: targets print what an input did. */
static inline bool fz_verbose(void)
{
	static int v = -1;

	if (v < 0)
		v = !!getenv("FZ_VERBOSE");
	return v;
}

#endif /* _VLC_FUZZ_H */
