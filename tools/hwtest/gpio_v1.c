// SPDX-License-Identifier: GPL-2.0
/*
 * gpio.h on the libgpiod 1.x API (Debian 12's 1.6): a line is an object
 * of its chip, requested on its own and reconfigured in place.
 */

#include <gpiod.h>
#include <stdlib.h>

#include "gpio.h"

struct hw_line {
	struct gpiod_line *line;
	struct hw_line *next;
};

struct hw_chip {
	struct gpiod_chip *chip;
	struct hw_line *lines;
};

struct hw_chip *hw_chip_open(const char *descr)
{
	struct hw_chip *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->chip = gpiod_chip_open_lookup(descr);
	if (!c->chip) {
		free(c);
		return NULL;
	}
	return c;
}

void hw_chip_close(struct hw_chip *c)
{
	struct hw_line *l;

	/* This releases the requested lines too. */
	gpiod_chip_close(c->chip);
	while (c->lines) {
		l = c->lines;
		c->lines = l->next;
		free(l);
	}
	free(c);
}

const char *hw_chip_name(struct hw_chip *c)
{
	return gpiod_chip_name(c->chip);
}

const char *hw_chip_label(struct hw_chip *c)
{
	return gpiod_chip_label(c->chip);
}

unsigned int hw_chip_num_lines(struct hw_chip *c)
{
	return gpiod_chip_num_lines(c->chip);
}

struct hw_line *hw_line_get(struct hw_chip *c, unsigned int off)
{
	struct hw_line *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->line = gpiod_chip_get_line(c->chip, off);
	if (!l->line) {
		free(l);
		return NULL;
	}
	l->next = c->lines;
	c->lines = l;
	return l;
}

unsigned int hw_line_offset(struct hw_line *l)
{
	return gpiod_line_offset(l->line);
}

int hw_line_request(struct hw_line *l, const char *consumer, int val,
		    bool no_pull)
{
	struct gpiod_line_request_config rc = {
		.consumer = consumer,
		.request_type = val < 0 ? GPIOD_LINE_REQUEST_DIRECTION_INPUT :
			      GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
		.flags = no_pull ? GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE : 0,
	};

	return gpiod_line_request(l->line, &rc, val > 0);
}

const char *hw_line_consumer(struct hw_line *l)
{
	/* Read the line's info anew: the holder came after hw_line_get(). */
	gpiod_line_update(l->line);
	return gpiod_line_consumer(l->line);
}

int hw_line_get_value(struct hw_line *l)
{
	return gpiod_line_get_value(l->line);
}

int hw_line_set_value(struct hw_line *l, int val)
{
	return gpiod_line_set_value(l->line, val);
}

/* These keep the request's flags, the disabled bias among them. */
int hw_line_output(struct hw_line *l, int val)
{
	return gpiod_line_set_direction_output(l->line, val);
}

int hw_line_input(struct hw_line *l)
{
	return gpiod_line_set_direction_input(l->line);
}
