/* SPDX-License-Identifier: GPL-2.0 */
/* The checks of vlc_refusal.h, one VLC_REFUSAL(CODE, FIELD, ALSO, MSG)
 * each: VLC_REFUSE_CODE refuses VLC_FIELD_FIELD, ALSO are the VLC_F() bits
 * of the fields it was checked against, and MSG is what the log and the
 * extended ACK say. Included once to number the checks and once to
 * describe them.
 */
VLC_REFUSAL(MODULATION, MODULATION, 0,
	    "modulation is neither 2slot nor 4ppm")
VLC_REFUSAL(SYNC_MIN, SYNC, 0,
	    "sync-us below 1 us")
VLC_REFUSAL(GUARD_MIN, GUARD, 0,
	    "guard-us below 1 us")
VLC_REFUSAL(DATA_MIN, DATA, 0,
	    "data-us below 1 us")
VLC_REFUSAL(FRAME_MAX, FRAME, 0,
	    "frame-us above 100 ms")
VLC_REFUSAL(FRAME_MIN, FRAME, 0,
	    "frame-us below 10 us")
VLC_REFUSAL(GUARD_TOLERANCE, GUARD, VLC_F(TOLERANCE),
	    "guard-us shorter than tolerance-us")
VLC_REFUSAL(FRAME_SLOTS, FRAME, VLC_F_SLOTS,
	    "frame-us too short for its sync-us, guard-us and data-us slots")
VLC_REFUSAL(BRIGHTNESS_TIMING, BRIGHTNESS, VLC_F_SLOTS | VLC_F(FRAME),
	    "timing invalid for brightness")
VLC_REFUSAL(BRIGHTNESS_MAX, BRIGHTNESS, VLC_F_SLOTS | VLC_F(FRAME),
	    "brightness above the maximum the illumination part allows")
VLC_REFUSAL(BRIGHTNESS_MIN, BRIGHTNESS, VLC_F(DATA) | VLC_F(FRAME),
	    "brightness below the minimum of one data slot")
VLC_REFUSAL(EXEC_FRAME, FRAME, 0,
	    "frame-us below 250 us, the shortest a timer executor runs")
VLC_REFUSAL(EXEC_SYNC, SYNC, 0,
	    "sync-us below 10 us, the shortest slot a timer executor runs")
VLC_REFUSAL(EXEC_GUARD, GUARD, 0,
	    "guard-us below 10 us, the shortest slot a timer executor runs")
VLC_REFUSAL(EXEC_DATA, DATA, 0,
	    "data-us below 10 us, the shortest slot a timer executor runs")
VLC_REFUSAL(SHORT_ADDR, SHORT_ADDR, 0,
	    "short_addr: 255 is broadcast (0..254)")
VLC_REFUSAL(BITS_PER_SYMBOL, BITS_PER_SYMBOL, VLC_F(MODULATION),
	    "bits_per_symbol: must be 1 or 2")
VLC_REFUSAL(FRAG_SIZE, FRAG_SIZE, 0,
	    "frag-size: must be 48..240 (32 fragments per packet)")
VLC_REFUSAL(RETRY_LIMIT, RETRY_LIMIT, 0,
	    "retry-limit: must be 0..15")
VLC_REFUSAL(CW_MAX, CW_MAX, 0,
	    "cw-max: must be 1..1024")
VLC_REFUSAL(CW_MIN, CW_MIN, VLC_F(CW_MAX),
	    "cw-min: must be 1..cw-max")
VLC_REFUSAL(SIFS, SIFS, 0,
	    "sifs: must be 1..15 (receivers need an idle frame)")
VLC_REFUSAL(DIFS, DIFS, VLC_F(SIFS),
	    "difs: must be sifs+1..64 (ACKs go first)")
VLC_REFUSAL(PREAMBLE, PREAMBLE, 0,
	    "preamble: must be 2..32 symbols")
VLC_REFUSAL(ACK_TIMEOUT_MIN, ACK_TIMEOUT,
	    VLC_F(SIFS) | VLC_F(PREAMBLE) | VLC_F(MODULATION),
	    "ack_timeout: shorter than SIFS plus an ACK")
VLC_REFUSAL(ACK_TIMEOUT_MAX, ACK_TIMEOUT, 0,
	    "ack_timeout: must be 0 (derived) or at most 4096")
VLC_REFUSAL(SYNC_DEADBAND, SYNC_DEADBAND, 0,
	    "sync_deadband_ns: must be 0..1000000")
VLC_REFUSAL(BEACON_INTERVAL, BEACON_INTERVAL, 0,
	    "beacon-interval: must be 0 (off) or 64..65535 frames")
VLC_REFUSAL(LOC_INTERVAL, LOC_INTERVAL, 0,
	    "loc-interval: must be 0 (off) or 64..65535 frames")
VLC_REFUSAL(RTS_THRESHOLD, RTS_THRESHOLD, 0,
	    "rts-threshold: must be 0 (off) or 1..1518 bytes")
VLC_REFUSAL(MAX_AGE, MAX_AGE, 0,
	    "max-age: must be 0 (off) or 64..65535 frames")
VLC_REFUSAL(FEC, FEC, 0,
	    "fec: must be off, auto, or 2, 4, 8, 16 or 32 parity symbols")
VLC_REFUSAL(FEC_UNAVAILABLE, FEC, 0,
	    "fec: this kernel has no REED_SOLOMON")
