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

/* One codeword as the input describes it, and as it was sent. */
struct fz_word {
	unsigned int level, len, mode, neras, p;
	int ref;		/* what the reference check says */
	bool within;		/* errors and erasures within the parity */
	u8 eras[256];
	u8 data[256], par[VLC_FEC_PARITY_MAX];
	u8 sent[256], sent_par[32];
};

/* The word's level, length, mode and erasure list, checked. */
static void word_params(struct fz *f, struct fz_word *w)
{
	unsigned int i;
	int r;

	w->level = fz_u8(f);
	if (w->level < 0x80)
		w->level %= 8;
	w->len = fz_u8(f);
	w->mode = fz_u8(f);
	w->neras = fz_u8(f);
	for (i = 0; i < w->neras; i++)
		w->eras[i] = fz_u8(f);
	w->ref = ref_check(w->level, w->len, w->eras, w->neras);
	w->p = vlc_fec_parity(w->level) > 0 ? vlc_fec_parity(w->level) : 0;

	/* the largest list the level allows, distinct and in range */
	if ((w->mode & 2) && w->p && w->len && w->len <= 255 - w->p) {
		bool used[256] = { false };

		for (i = 0; i < w->p; i++) {
			w->eras[i] = fz_u8(f) % (w->len + w->p);
			while (used[w->eras[i]])
				w->eras[i] = (w->eras[i] + 1) % (w->len + w->p);
			used[w->eras[i]] = true;
		}
		w->neras = w->p;
		w->ref = ref_check(w->level, w->len, w->eras, w->neras);
		FZ_CHECK(w->ref == (int)w->p, "full list refused: level %u len %u",
			 w->level, w->len);
	}

	r = vlc_fec_check(w->level, w->len, w->eras, w->neras);
	FZ_CHECK(r == w->ref, "check %d, reference %d (level %u len %u neras %u)",
		 r, w->ref, w->level, w->len, w->neras);
}

/* The received word: raw input, or a codeword with its erasures
 * spoiled and (mode >> 4) symbol errors beside them.
 */
static void word_received(struct fz *f, struct fz_word *w)
{
	unsigned int len = w->len, p = w->p, i, nerr;
	bool spoiled[256] = { false };
	int n;

	memset(w->data, 0, sizeof(w->data));
	memset(w->par, 0, sizeof(w->par));
	w->within = false;
	for (i = 0; i < len; i++)
		w->data[i] = fz_u8(f);
	if (w->mode & 1 || w->ref < 0) {
		for (i = 0; i < p; i++)
			w->par[i] = fz_u8(f);
		return;
	}
	n = vlc_fec_encode(&fec, w->level, w->data, len, w->par);
	FZ_CHECK(n == (int)p, "encode %d, parity %u", n, p);
	memcpy(w->sent, w->data, len);
	memcpy(w->sent_par, w->par, p);
	for (i = 0; i < w->neras; i++)
		*sym(w->data, w->par, len, w->eras[i]) ^= fz_u8(f);
	for (i = 0; i < w->neras; i++)
		spoiled[w->eras[i]] = true;
	nerr = 0;
	for (i = 0; i < w->mode >> 4; i++) {
		unsigned int pos = fz_u8(f) % (len + p);
		u8 v = fz_u8(f) | 1;

		if (spoiled[pos])
			continue;
		spoiled[pos] = true;
		*sym(w->data, w->par, len, pos) ^= v;
		nerr++;
	}
	w->within = 2 * nerr + w->neras <= p;
}

/* One codeword of the input; false when the input is used up. */
static bool one_word(struct fz *f)
{
	u8 before[256], before_par[32];
	struct fz_word w;
	unsigned int i, changed;
	int n;

	if (!fz_left(f))
		return false;
	word_params(f, &w);
	word_received(f, &w);

	memcpy(before, w.data, sizeof(w.data));
	memcpy(before_par, w.par, sizeof(w.par));
	n = vlc_fec_decode(&fec, w.level, w.data, w.len, w.par, w.eras,
			   w.neras);
	if (fz_verbose())
		fprintf(stderr, "level %u len %u neras %u mode %#x: %d\n",
			w.level, w.len, w.neras, w.mode, n);
	if (w.ref < 0) {
		FZ_CHECK(n == -EINVAL, "decode %d where the reference refuses",
			 n);
	} else {
		FZ_CHECK(n != -EINVAL, "decode refused what the reference takes");
		FZ_CHECK(n >= 0 || n == -EBADMSG, "decode %d", n);
	}
	if (n < 0) {
		FZ_CHECK(!memcmp(before, w.data, sizeof(w.data)) &&
			 !memcmp(before_par, w.par, sizeof(w.par)),
			 "a failed decode (%d) changed the word", n);
		FZ_CHECK(!w.within, "a word within capacity failed: %d", n);
		return true;
	}

	FZ_CHECK((unsigned int)n <= w.p, "%d corrections, parity %u", n, w.p);
	for (i = 0, changed = 0; i < w.len + w.p; i++)
		changed += *sym(w.data, w.par, w.len, i) !=
			   *sym(before, before_par, w.len, i);
	FZ_CHECK(changed == (unsigned int)n, "%u symbols changed, %d said",
		 changed, n);
	memcpy(before_par, w.par, w.p);
	FZ_CHECK(vlc_fec_encode(&fec, w.level, w.data, w.len, w.par) ==
		 (int)w.p, "re-encode");
	FZ_CHECK(!memcmp(before_par, w.par, w.p), "decoded to a non-codeword");
	if (w.within)
		FZ_CHECK(!memcmp(w.data, w.sent, w.len) &&
			 !memcmp(w.par, w.sent_par, w.p),
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
