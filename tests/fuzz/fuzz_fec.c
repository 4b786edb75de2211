// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the FEC layer's decoder wrapper (vlc_fec.c) on the
 * kernel's lib/reed_solomon, the only way the MAC reaches decode_rs8().
 *
 * The input is a sequence of codewords, each:
 *   level (u8: below 0x80 taken modulo 8, so 6 and 7 are unknown levels;
 *   0x80 and up raw), len (u8, raw), mode (u8), neras (u8), then neras
 *   erasure positions (u8, raw), then the symbols:
 *     mode bit 0 clear: len data bytes, encoded at the level, then
 *       spoiled: the symbols at the erased positions get the next input
 *       bytes (XORed), then "errors" more (mode bits 4..7) at positions
 *       from the input, not listed as erased;
 *     mode bit 0 set: garbage, len data and the parity straight from
 *       the input;
 *     mode bit 1: the list is replaced by the largest one the level
 *       allows (parity positions from the input, made distinct), so
 *       every level is tried at its full erasure count.
 * Checked (abort on violation):
 *  - vlc_fec_check() and vlc_fec_decode() refuse (-EINVAL) exactly what
 *    the reference below, written from vlc_fec.h and vlc_fec.c's
 *    kernel-doc, refuses; nothing ever reaches decode_rs8()'s BUG_ON
 *    (a trap here);
 *  - a refusal or -EBADMSG leaves data and parity untouched;
 *  - a decode returns at most the parity's count, changes exactly that
 *    many symbols, and leaves a codeword (re-encoded, the same parity);
 *  - a word spoiled within the capacity (2 errors + erasures <= parity,
 *    every erasure listed) decodes to exactly what was sent.
 */

#include <linux/kernel.h>
#include <linux/errno.h>

#include "vlc_fec.h"
#include "fuzz.h"

static struct vlc_fec fec;

/* The rules of vlc_fec_check()'s kernel-doc, written again. */
static int ref_check(unsigned int level, unsigned int len, const u8 *eras,
		     unsigned int neras)
{
	static const int parity[] = { 0, 2, 4, 8, 16, 32 };
	bool seen[256] = { false };
	unsigned int i;
	int p;

	if (level >= ARRAY_SIZE(parity) || !parity[level])
		return -EINVAL;
	p = parity[level];
	if (len < 1 || len > 255U - p || neras > (unsigned int)p)
		return -EINVAL;
	for (i = 0; i < neras; i++) {
		if (eras[i] >= len + p || seen[eras[i]])
			return -EINVAL;
		seen[eras[i]] = true;
	}
	return p;
}

static u8 *sym(u8 *data, u8 *par, unsigned int len, unsigned int pos)
{
	return pos < len ? &data[pos] : &par[pos - len];
}

/* One codeword of the input; false when the input is used up. */
static bool one_word(struct fz *f)
{
	u8 data[256], par[VLC_FEC_PARITY_MAX], sent[256], sent_par[32];
	u8 before[256], before_par[32], eras[256];
	unsigned int level, len, mode, neras, nerr, i, changed, p;
	bool spoiled[256] = { false }, within;
	int ref, r, n;

	if (!fz_left(f))
		return false;
	level = fz_u8(f);
	if (level < 0x80)
		level %= 8;
	len = fz_u8(f);
	mode = fz_u8(f);
	neras = fz_u8(f);
	for (i = 0; i < neras; i++)
		eras[i] = fz_u8(f);
	ref = ref_check(level, len, eras, neras);
	p = vlc_fec_parity(level) > 0 ? vlc_fec_parity(level) : 0;

	/* the largest list the level allows, distinct and in range */
	if ((mode & 2) && p && len && len <= 255 - p) {
		bool used[256] = { false };

		for (i = 0; i < p; i++) {
			eras[i] = fz_u8(f) % (len + p);
			while (used[eras[i]])
				eras[i] = (eras[i] + 1) % (len + p);
			used[eras[i]] = true;
		}
		neras = p;
		ref = ref_check(level, len, eras, neras);
		FZ_CHECK(ref == (int)p, "full list refused: level %u len %u",
			 level, len);
	}

	r = vlc_fec_check(level, len, eras, neras);
	FZ_CHECK(r == ref, "check %d, reference %d (level %u len %u neras %u)",
		 r, ref, level, len, neras);

	memset(data, 0, sizeof(data));
	memset(par, 0, sizeof(par));
	within = false;
	if (mode & 1 || ref < 0) {
		for (i = 0; i < len; i++)
			data[i] = fz_u8(f);
		for (i = 0; i < p; i++)
			par[i] = fz_u8(f);
	} else {
		for (i = 0; i < len; i++)
			data[i] = fz_u8(f);
		n = vlc_fec_encode(&fec, level, data, len, par);
		FZ_CHECK(n == (int)p, "encode %d, parity %u", n, p);
		memcpy(sent, data, len);
		memcpy(sent_par, par, p);
		for (i = 0; i < neras; i++)
			*sym(data, par, len, eras[i]) ^= fz_u8(f);
		for (i = 0; i < neras; i++)
			spoiled[eras[i]] = true;
		nerr = 0;
		for (i = 0; i < mode >> 4; i++) {
			unsigned int pos = fz_u8(f) % (len + p);
			u8 v = fz_u8(f) | 1;

			if (spoiled[pos])
				continue;
			spoiled[pos] = true;
			*sym(data, par, len, pos) ^= v;
			nerr++;
		}
		within = 2 * nerr + neras <= p;
	}

	memcpy(before, data, sizeof(data));
	memcpy(before_par, par, sizeof(par));
	n = vlc_fec_decode(&fec, level, data, len, par, eras, neras);
	if (fz_verbose())
		fprintf(stderr, "level %u len %u neras %u mode %#x: %d\n",
			level, len, neras, mode, n);
	if (ref < 0) {
		FZ_CHECK(n == -EINVAL, "decode %d where the reference refuses",
			 n);
	} else {
		FZ_CHECK(n != -EINVAL, "decode refused what the reference takes");
		FZ_CHECK(n >= 0 || n == -EBADMSG, "decode %d", n);
	}
	if (n < 0) {
		FZ_CHECK(!memcmp(before, data, sizeof(data)) &&
			 !memcmp(before_par, par, sizeof(par)),
			 "a failed decode (%d) changed the word", n);
		FZ_CHECK(!within, "a word within capacity failed: %d", n);
		return true;
	}

	FZ_CHECK((unsigned int)n <= p, "%d corrections, parity %u", n, p);
	for (i = 0, changed = 0; i < len + p; i++)
		changed += *sym(data, par, len, i) !=
			   *sym(before, before_par, len, i);
	FZ_CHECK(changed == (unsigned int)n, "%u symbols changed, %d said",
		 changed, n);
	memcpy(before_par, par, p);
	FZ_CHECK(vlc_fec_encode(&fec, level, data, len, par) == (int)p,
		 "re-encode");
	FZ_CHECK(!memcmp(before_par, par, p), "decoded to a non-codeword");
	if (within)
		FZ_CHECK(!memcmp(data, sent, len) && !memcmp(par, sent_par, p),
			 "within capacity, decoded to another word");
	return true;
}

int fz_one_input(const u8 *data, size_t size)
{
	struct fz f = { data, size };
	unsigned int words = 0;

	if (!vlc_fec_ready(&fec))
		FZ_CHECK(!vlc_fec_init(&fec), "vlc_fec_init");
	while (words++ < 64 && one_word(&f))
		;
	return 0;
}
