// SPDX-License-Identifier: GPL-2.0
/*
 * Test cases of the VLC FEC layer (vlc_fec.c) on the kernel's
 * lib/reed_solomon: round trips, erasures up to the parity and one more,
 * erasure lists and lengths the wrapper must refuse before decode_rs8()
 * sees them, and a word decoded into the wrong data, which the MAC's CRC
 * must catch. Suite "vlc_fec", written once for KUnit and the host
 * cmocka runner (tests/host/vlc_fec_test.c); the table at the end lists
 * them. Built without REED_SOLOMON, every case checks that FEC says it
 * is unavailable instead.
 */

#include <linux/crc-ccitt.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vlc_fec.h"
#include "vlc_test.h"

#define TF_CRC_GOOD	0xf0b8		/* residue of the X.25 FCS */

static struct vlc_fec tf_fec;
static u8 tf_data[VLC_FEC_SYMBOLS_MAX], tf_par[VLC_FEC_PARITY_MAX];
static u8 tf_sent[VLC_FEC_SYMBOLS_MAX], tf_sent_par[VLC_FEC_PARITY_MAX];
static u32 tf_seed;

static u32 tf_rand(void)
{
	tf_seed ^= tf_seed << 13;
	tf_seed ^= tf_seed >> 17;
	tf_seed ^= tf_seed << 5;
	return tf_seed;
}

/* The codecs, or false (and the unavailable answers checked) without. */
static bool tf_init(VLC_TEST_CTX, u32 seed)
{
	int err = vlc_fec_init(&tf_fec);

	tf_seed = seed;
	if (!vlc_fec_available()) {
		VLC_EXPECT_EQ(err, -EOPNOTSUPP);
		VLC_EXPECT_TRUE(!vlc_fec_ready(&tf_fec));
		VLC_EXPECT_EQ(vlc_fec_encode(&tf_fec, 1, tf_data, 10, tf_par),
			      -EOPNOTSUPP);
		VLC_EXPECT_EQ(vlc_fec_encode_begin(&tf_fec, 1, 10),
			      -EOPNOTSUPP);
		VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, 1, tf_data, 10, tf_par,
					     NULL, 0), -EOPNOTSUPP);
		vlc_fec_exit(&tf_fec);
		return false;
	}
	VLC_ASSERT_EQ(err, 0);
	VLC_ASSERT_TRUE(vlc_fec_ready(&tf_fec));
	return true;
}

/* A codeword of @len random data symbols at @level, kept in tf_sent*. */
static unsigned int tf_word(VLC_TEST_CTX, unsigned int level,
			    unsigned int len)
{
	unsigned int i;
	int npar;

	for (i = 0; i < len; i++)
		tf_data[i] = tf_rand();
	npar = vlc_fec_encode(&tf_fec, level, tf_data, len, tf_par);
	VLC_ASSERT_EQ(npar, vlc_fec_parity(level));
	memcpy(tf_sent, tf_data, len);
	memcpy(tf_sent_par, tf_par, npar);
	return npar;
}

/* the received word is the sent one */
static bool tf_intact(unsigned int len, unsigned int npar)
{
	return !memcmp(tf_data, tf_sent, len) &&
	       !memcmp(tf_par, tf_sent_par, npar);
}

/* Symbol @pos of the word, data then parity. */
static u8 *tf_sym(unsigned int len, unsigned int pos)
{
	return pos < len ? &tf_data[pos] : &tf_par[pos - len];
}

/* @n distinct positions below @limit, into @pos. */
static void tf_positions(u8 *pos, unsigned int n, unsigned int limit)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
again:
		pos[i] = tf_rand() % limit;
		for (j = 0; j < i; j++)
			if (pos[j] == pos[i])
				goto again;
	}
}

/* Spoil the symbols at @pos with a value other than their own. */
static void tf_spoil(const u8 *pos, unsigned int n, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		*tf_sym(len, pos[i]) ^= 1 + tf_rand() % 255;
}

/* the lengths worth trying at @npar parity symbols */
static unsigned int tf_len(unsigned int i, unsigned int npar)
{
	static const unsigned int len[] = { 1, 2, 17, 64, 200, 255 };

	return min_t(unsigned int, len[i], VLC_FEC_SYMBOLS_MAX - npar);
}

#define TF_LENS	6

/* encode then decode, untouched, at every level and length */
VLC_TEST(vlc_fec_test_round_trip)
{
	unsigned int level, i, len, npar;

	if (!tf_init(vlc_test_ctx, 1))
		return;
	VLC_EXPECT_EQ(vlc_fec_parity(0), 0);
	VLC_EXPECT_EQ(vlc_fec_parity(VLC_FEC_LEVELS - 1), VLC_FEC_PARITY_MAX);
	for (level = 1; level < VLC_FEC_LEVELS; level++) {
		for (i = 0; i < TF_LENS; i++) {
			len = tf_len(i, vlc_fec_parity(level));
			npar = tf_word(vlc_test_ctx, level, len);
			VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data,
						     len, tf_par, NULL, 0), 0);
			VLC_EXPECT_TRUE(tf_intact(len, npar));
		}
	}
	vlc_fec_exit(&tf_fec);
	VLC_EXPECT_TRUE(!vlc_fec_ready(&tf_fec));
}

/* every count of erasures up to the parity, anywhere in the word, with
 * anything in the erased symbols; then errors besides erasures within
 * the capacity (2 errors + erasures <= parity)
 */
VLC_TEST(vlc_fec_test_erasures)
{
	unsigned int level, i, e, len, npar, errs, trial;
	u8 pos[VLC_FEC_PARITY_MAX];
	int n;

	if (!tf_init(vlc_test_ctx, 2))
		return;
	for (level = 1; level < VLC_FEC_LEVELS; level++) {
		npar = vlc_fec_parity(level);
		for (i = 0; i < TF_LENS; i++) {
			len = tf_len(i, npar);
			for (e = 0; e <= npar; e++) {
				tf_word(vlc_test_ctx, level, len);
				tf_positions(pos, e, len + npar);
				tf_spoil(pos, e, len);
				n = vlc_fec_decode(&tf_fec, level, tf_data, len,
						   tf_par, pos, e);
				VLC_EXPECT_EQ(n, e);
				VLC_EXPECT_TRUE(tf_intact(len, npar));
			}
		}
		/* erasures, and errors the PHY did not see */
		len = tf_len(4, npar);
		for (trial = 0; trial < 20; trial++) {
			e = tf_rand() % (npar + 1);
			errs = (npar - e) / 2;
			tf_word(vlc_test_ctx, level, len);
			tf_positions(pos, e + errs, len + npar);
			tf_spoil(pos, e + errs, len);
			n = vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
					   pos, e);
			VLC_EXPECT_EQ(n, e + errs);
			VLC_EXPECT_TRUE(tf_intact(len, npar));
		}
	}
	/* an erased symbol that happens to be right is not a correction */
	tf_word(vlc_test_ctx, 3, 100);
	pos[0] = 5;
	pos[1] = 50;
	tf_spoil(pos, 1, 100);
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, 3, tf_data, 100, tf_par, pos, 2),
		      1);
	VLC_EXPECT_TRUE(tf_intact(100, 8));
	vlc_fec_exit(&tf_fec);
}

/* one erasure more than the parity is refused, the word left alone */
VLC_TEST(vlc_fec_test_too_many)
{
	unsigned int level, len, npar;
	u8 pos[VLC_FEC_PARITY_MAX + 1], copy[VLC_FEC_SYMBOLS_MAX];

	if (!tf_init(vlc_test_ctx, 3))
		return;
	for (level = 1; level < VLC_FEC_LEVELS; level++) {
		npar = vlc_fec_parity(level);
		len = tf_len(3, npar);
		tf_word(vlc_test_ctx, level, len);
		tf_positions(pos, npar + 1, len + npar);
		tf_spoil(pos, npar + 1, len);
		memcpy(copy, tf_data, len);
		VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len,
					     tf_par, pos, npar + 1), -EINVAL);
		VLC_EXPECT_TRUE(!memcmp(copy, tf_data, len));
		VLC_EXPECT_EQ(vlc_fec_check(level, len, pos, npar + 1),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_check(level, len, pos, npar), npar);
	}
	vlc_fec_exit(&tf_fec);
}

/* erasure lists that cannot describe the word: each refused */
VLC_TEST(vlc_fec_test_bad_list)
{
	u8 pos[VLC_FEC_PARITY_MAX + 1];
	unsigned int len = 100, npar = 16, level = 4;

	if (!tf_init(vlc_test_ctx, 4))
		return;
	tf_word(vlc_test_ctx, level, len);
	/* the first position past the parity */
	pos[0] = 3;
	pos[1] = len + npar;
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, 2), -EINVAL);
	pos[1] = 255;
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, 2), -EINVAL);
	/* the last parity symbol is a place */
	pos[1] = len + npar - 1;
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, 2), 0);
	/* a position twice, first to last */
	pos[1] = 3;
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, 2), -EINVAL);
	tf_positions(pos, npar, len + npar);
	pos[npar - 1] = pos[0];
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, npar), -EINVAL);
	/* a count without a list, and more than the parity */
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     NULL, 1), -EINVAL);
	tf_positions(pos, npar + 1, len + npar);
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, npar + 1), -EINVAL);
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par,
				     pos, ~0U), -EINVAL);
	VLC_EXPECT_TRUE(tf_intact(len, npar));
	vlc_fec_exit(&tf_fec);
}

/* lengths and levels decode_rs8() would BUG_ON or has no codec for */
VLC_TEST(vlc_fec_test_bad_length)
{
	unsigned int level, npar;

	if (!tf_init(vlc_test_ctx, 5))
		return;
	for (level = 1; level < VLC_FEC_LEVELS; level++) {
		npar = vlc_fec_parity(level);
		tf_word(vlc_test_ctx, level, 10);
		VLC_EXPECT_EQ(vlc_fec_check(level, 0, NULL, 0), -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_check(level, 255 - npar, NULL, 0), npar);
		VLC_EXPECT_EQ(vlc_fec_check(level, 256 - npar, NULL, 0),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, 0,
					     tf_par, NULL, 0), -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data,
					     256 - npar, tf_par, NULL, 0),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, level, tf_data, ~0U,
					     tf_par, NULL, 0), -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode(&tf_fec, level, tf_data,
					     256 - npar, tf_par), -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode(&tf_fec, level, tf_data, 0,
					     tf_par), -EINVAL);
	}
	/* level 0 carries no parity; 6 and up do not exist */
	VLC_EXPECT_EQ(vlc_fec_parity(VLC_FEC_LEVELS), -EINVAL);
	VLC_EXPECT_EQ(vlc_fec_check(0, 10, NULL, 0), -EINVAL);
	VLC_EXPECT_EQ(vlc_fec_encode(&tf_fec, 0, tf_data, 10, tf_par),
		      -EINVAL);
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, VLC_FEC_LEVELS, tf_data, 10,
				     tf_par, NULL, 0), -EINVAL);
	VLC_EXPECT_EQ(vlc_fec_decode(&tf_fec, ~0U, tf_data, 10, tf_par, NULL,
				     0), -EINVAL);
	vlc_fec_exit(&tf_fec);
}

/* The encoder fed in steps, as the MAC feeds it while a frame goes out,
 * gives the parity of the whole word; it refuses data past the length
 * it began with, and parity before all of it came.
 */
VLC_TEST(vlc_fec_test_steps)
{
	unsigned int level, i, len, npar, k, step;
	u8 par[VLC_FEC_PARITY_MAX];

	if (!tf_init(vlc_test_ctx, 7))
		return;
	for (level = 1; level < VLC_FEC_LEVELS; level++) {
		for (i = 0; i < TF_LENS; i++) {
			len = tf_len(i, vlc_fec_parity(level));
			npar = tf_word(vlc_test_ctx, level, len);
			VLC_EXPECT_EQ(vlc_fec_encode_begin(&tf_fec, level, len),
				      0);
			for (k = 0; k < len; k += step) {
				VLC_EXPECT_EQ(vlc_fec_encode_end(&tf_fec, par),
					      -EINVAL);
				step = min(3U, len - k);
				VLC_EXPECT_EQ(vlc_fec_encode_more(&tf_fec,
								  tf_data + k,
								  step), 0);
			}
			VLC_EXPECT_EQ(vlc_fec_encode_more(&tf_fec, tf_data, 1),
				      -EINVAL);
			VLC_EXPECT_EQ(vlc_fec_encode_end(&tf_fec, par), npar);
			VLC_EXPECT_TRUE(!memcmp(par, tf_sent_par, npar));
			VLC_EXPECT_EQ(vlc_fec_encode_end(&tf_fec, par),
				      -EINVAL);
		}
		npar = vlc_fec_parity(level);
		VLC_EXPECT_EQ(vlc_fec_encode_begin(&tf_fec, level, 0), -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode_begin(&tf_fec, level, 256 - npar),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode_more(&tf_fec, tf_data, 1),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode_more(&tf_fec, tf_data, 0),
			      -EINVAL);
		VLC_EXPECT_EQ(vlc_fec_encode_end(&tf_fec, par), -EINVAL);
	}
	VLC_EXPECT_EQ(vlc_fec_encode_begin(&tf_fec, 0, 10), -EINVAL);
	vlc_fec_exit(&tf_fec);
}

/* A frame as the MAC sends one: @len - 2 random bytes and their CRC. */
static void tf_frame(u8 *f, unsigned int len)
{
	unsigned int i;
	u16 fcs;

	for (i = 0; i < len - 2; i++)
		f[i] = tf_rand();
	fcs = crc_ccitt(0xffff, f, len - 2) ^ 0xffff;
	f[len - 2] = fcs & 0xff;
	f[len - 1] = fcs >> 8;
}

/* Errors beyond the capacity that bring the word within reach of
 * another codeword: the decoder "corrects" it into wrong data, and the
 * CRC that the data carries drops it.
 */
VLC_TEST(vlc_fec_test_misdecode)
{
	unsigned int level = 2, len = 40, npar = 4, i, nd, t, trial;
	unsigned int miscorrected = 0, failed = 0;
	u8 other[VLC_FEC_SYMBOLS_MAX], other_par[VLC_FEC_PARITY_MAX];
	u8 diff[VLC_FEC_SYMBOLS_MAX], pos[VLC_FEC_PARITY_MAX];
	int n;

	if (!tf_init(vlc_test_ctx, 6))
		return;
	/* Sent: frame A. B differs in one data byte, so in at least
	 * npar + 1 symbols of the codeword (the code's distance).
	 */
	tf_frame(tf_data, len);
	VLC_ASSERT_EQ(vlc_fec_encode(&tf_fec, level, tf_data, len, tf_par),
		      npar);
	memcpy(other, tf_data, len);
	other[7] ^= 0x5a;
	VLC_ASSERT_EQ(vlc_fec_encode(&tf_fec, level, other, len, other_par),
		      npar);
	for (i = 0, nd = 0; i < len + npar; i++)
		if (*tf_sym(len, i) != (i < len ? other[i] :
					other_par[i - len]))
			diff[nd++] = i;
	VLC_ASSERT_GE(nd, npar + 1);
	/* Received: B's symbols but for t = npar / 2 of A's, i.e. nd - t
	 * channel errors, more than the npar / 2 the code corrects.
	 */
	t = npar / 2;
	for (i = t; i < nd; i++)
		*tf_sym(len, diff[i]) = diff[i] < len ? other[diff[i]] :
					other_par[diff[i] - len];
	n = vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par, NULL, 0);
	VLC_EXPECT_EQ(n, t);
	VLC_EXPECT_TRUE(!memcmp(tf_data, other, len));
	VLC_EXPECT_NE(crc_ccitt(0xffff, tf_data, len), TF_CRC_GOOD);

	/* At random: errors and erasures past the capacity. Whatever the
	 * decoder answers, nothing wrong passes the CRC.
	 */
	for (trial = 0; trial < 2000; trial++) {
		unsigned int e = tf_rand() % (npar + 1);
		unsigned int errs = (npar - e) / 2 + 1 + tf_rand() % 3;

		tf_frame(tf_data, len);
		VLC_ASSERT_EQ(vlc_fec_encode(&tf_fec, level, tf_data, len,
					     tf_par), npar);
		memcpy(tf_sent, tf_data, len);
		tf_positions(pos, e + errs, len + npar);
		tf_spoil(pos, e + errs, len);
		n = vlc_fec_decode(&tf_fec, level, tf_data, len, tf_par, pos,
				   e);
		if (n < 0) {
			VLC_EXPECT_EQ(n, -EBADMSG);
			failed++;
		} else if (memcmp(tf_data, tf_sent, len)) {
			miscorrected++;
			VLC_EXPECT_NE(crc_ccitt(0xffff, tf_data, len),
				      TF_CRC_GOOD);
		}
	}
	VLC_TEST_LOG("beyond capacity: %u of 2000 refused, %u miscorrected",
		     failed, miscorrected);
	VLC_EXPECT_GT(failed, 0);
	VLC_EXPECT_GT(miscorrected, 0);
	vlc_fec_exit(&tf_fec);
}

/* The cases of this suite; each runner registers this table. */
static VLC_TEST_CASE_TYPE vlc_fec_test_cases[] = {
	VLC_TEST_CASE(vlc_fec_test_round_trip)
	VLC_TEST_CASE(vlc_fec_test_erasures)
	VLC_TEST_CASE(vlc_fec_test_too_many)
	VLC_TEST_CASE(vlc_fec_test_bad_list)
	VLC_TEST_CASE(vlc_fec_test_bad_length)
	VLC_TEST_CASE(vlc_fec_test_misdecode)
	VLC_TEST_CASE(vlc_fec_test_steps)
	VLC_TEST_CASES_END
};
