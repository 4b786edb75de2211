/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GPIO access of vlc-hwtest. libgpiod 1.x (Debian 12) and 2.x
 * (Debian 13) have incompatible APIs and no version macro to switch on,
 * so gpio_v1.c or gpio_v2.c implements this, and the Makefile picks the
 * one for the libgpiod that pkg-config reports.
 *
 * Calls that fail return NULL or -1 and leave errno set.
 */
#ifndef VLC_HWTEST_GPIO_H
#define VLC_HWTEST_GPIO_H

#include <stdbool.h>

struct hw_chip;
struct hw_line;

/* A chip by name, number, /dev path or label, as gpiod_chip_open_lookup()
 * of libgpiod 1.x takes it.
 */
struct hw_chip *hw_chip_open(const char *descr);
void hw_chip_close(struct hw_chip *chip);
const char *hw_chip_name(struct hw_chip *chip);
const char *hw_chip_label(struct hw_chip *chip);
unsigned int hw_chip_num_lines(struct hw_chip *chip);

/* The line at offset off, not yet requested. */
struct hw_line *hw_line_get(struct hw_chip *chip, unsigned int off);
unsigned int hw_line_offset(struct hw_line *l);

/* Request the line as an output at val (0 or 1), or as an input when
 * val < 0; no_pull asks for the bias to be disabled, and stays with the
 * line when its direction changes.
 */
int hw_line_request(struct hw_line *l, const char *consumer, int val,
		    bool no_pull);
/* After a failed request: who holds the line, or NULL if unknown. */
const char *hw_line_consumer(struct hw_line *l);

int hw_line_get_value(struct hw_line *l);
int hw_line_set_value(struct hw_line *l, int val);
int hw_line_output(struct hw_line *l, int val);
int hw_line_input(struct hw_line *l);

#endif /* VLC_HWTEST_GPIO_H */
