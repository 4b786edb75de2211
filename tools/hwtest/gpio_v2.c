// SPDX-License-Identifier: GPL-2.0
/*
 * gpio.h on the libgpiod 2.x API (Debian 13's 2.2; nothing newer than
 * 2.0 is used): there are no line objects, a line is an offset, and a
 * request of that one line is reconfigured as a whole. What 2.x dropped
 * of 1.x is redone here as 1.6 did it, so both builds behave alike.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio.h"

/* The kernel's name, label and consumer lengths (GPIO_MAX_NAME_SIZE). */
#define NAME_LEN	32

struct hw_line {
	struct hw_chip *chip;
	unsigned int off;
	bool no_pull;
	struct gpiod_line_request *req;
	/* Output low, output high, input: built once, see config(). */
	struct gpiod_line_config *cfg[3];
	char consumer[NAME_LEN + 1];
	struct hw_line *next;
};

struct hw_chip {
	struct gpiod_chip *chip;
	unsigned int num_lines;
	char name[NAME_LEN + 1];
	char label[NAME_LEN + 1];
	struct hw_line *lines;
};

static bool is_uint(const char *s)
{
	while (isdigit((unsigned char)*s))
		s++;
	return !*s;
}

static bool has_label(struct gpiod_chip *chip, const char *label)
{
	struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
	bool ret;

	if (!info)
		return false;
	ret = !strcmp(gpiod_chip_info_get_label(info), label);
	gpiod_chip_info_free(info);
	return ret;
}

static int is_chip_name(const struct dirent *d)
{
	return !strncmp(d->d_name, "gpiochip", 8);
}

/* As 1.6's gpiod_chip_open_by_label(): of the /dev/gpiochip* in
 * alphabetical order the first with that label; none if any of them
 * cannot be opened.
 */
static struct gpiod_chip *open_by_label(const char *label)
{
	struct gpiod_chip *chip, *found = NULL;
	struct dirent **ents;
	bool failed = false;
	char *path;
	int i, n;

	n = scandir("/dev", &ents, is_chip_name, alphasort);
	if (n < 0)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!failed) {
			chip = NULL;
			if (asprintf(&path, "/dev/%s", ents[i]->d_name) >= 0) {
				chip = gpiod_chip_open(path);
				free(path);
			}
			if (!chip)
				failed = true;
			else if (!found && has_label(chip, label))
				found = chip;
			else
				gpiod_chip_close(chip);
		}
		free(ents[i]);
	}
	free(ents);
	if (failed && found) {
		gpiod_chip_close(found);
		found = NULL;
	}
	if (!found)
		errno = ENOENT;
	return found;
}

/* A character device of another subsystem is ENODEV to 2.x, ENOTTY to
 * 1.6: keep 1.6's word for it, so both builds print the same.
 */
static struct gpiod_chip *chip_open(const char *path)
{
	struct gpiod_chip *chip = gpiod_chip_open(path);

	if (!chip && errno == ENODEV)
		errno = ENOTTY;
	return chip;
}

/* 1.6's gpiod_chip_open_lookup(): a number is /dev/gpiochipN; else a
 * label, then a path under /dev, or a name there.
 */
static struct gpiod_chip *open_lookup(const char *descr)
{
	struct gpiod_chip *chip;
	char *path;
	int ret;

	if (is_uint(descr)) {
		ret = asprintf(&path, "/dev/gpiochip%u",
			       (unsigned int)strtoul(descr, NULL, 10));
	} else {
		chip = open_by_label(descr);
		if (chip)
			return chip;
		if (!strncmp(descr, "/dev/", 5))
			return chip_open(descr);
		ret = asprintf(&path, "/dev/%s", descr);
	}
	if (ret < 0)
		return NULL;
	chip = chip_open(path);
	free(path);
	return chip;
}

struct hw_chip *hw_chip_open(const char *descr)
{
	struct gpiod_chip_info *info;
	struct hw_chip *c;
	int err;

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->chip = open_lookup(descr);
	if (!c->chip)
		goto fail;
	info = gpiod_chip_get_info(c->chip);
	if (!info)
		goto fail_close;
	snprintf(c->name, sizeof(c->name), "%s",
		 gpiod_chip_info_get_name(info));
	snprintf(c->label, sizeof(c->label), "%s",
		 gpiod_chip_info_get_label(info));
	c->num_lines = gpiod_chip_info_get_num_lines(info);
	gpiod_chip_info_free(info);
	return c;

fail_close:
	err = errno;
	gpiod_chip_close(c->chip);
	errno = err;
fail:
	free(c);
	return NULL;
}

void hw_chip_close(struct hw_chip *c)
{
	struct hw_line *l;
	int i;

	while (c->lines) {
		l = c->lines;
		c->lines = l->next;
		if (l->req)
			gpiod_line_request_release(l->req);
		for (i = 0; i < 3; i++) {
			if (l->cfg[i])
				gpiod_line_config_free(l->cfg[i]);
		}
		free(l);
	}
	gpiod_chip_close(c->chip);
	free(c);
}

const char *hw_chip_name(struct hw_chip *c)
{
	return c->name;
}

const char *hw_chip_label(struct hw_chip *c)
{
	return c->label;
}

unsigned int hw_chip_num_lines(struct hw_chip *c)
{
	return c->num_lines;
}

/* 1.6 reads the line's info here, and fails where that fails. */
struct hw_line *hw_line_get(struct hw_chip *c, unsigned int off)
{
	struct gpiod_line_info *info;
	struct hw_line *l;

	info = gpiod_chip_get_line_info(c->chip, off);
	if (!info)
		return NULL;
	gpiod_line_info_free(info);
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->chip = c;
	l->off = off;
	l->next = c->lines;
	c->lines = l;
	return l;
}

unsigned int hw_line_offset(struct hw_line *l)
{
	return l->off;
}

/* The line's whole configuration for direction val (< 0: input), with
 * the bias of the request: 2.x replaces the configuration on every
 * change, where 1.x kept the flags. Built once, out of the timed loop.
 */
static struct gpiod_line_config *config(struct hw_line *l, int val)
{
	struct gpiod_line_config **cfg = &l->cfg[val < 0 ? 2 : !!val];
	enum gpiod_line_direction dir = val < 0 ? GPIOD_LINE_DIRECTION_INPUT :
						  GPIOD_LINE_DIRECTION_OUTPUT;
	enum gpiod_line_value out = val > 0 ? GPIOD_LINE_VALUE_ACTIVE :
					      GPIOD_LINE_VALUE_INACTIVE;
	enum gpiod_line_bias bias = l->no_pull ? GPIOD_LINE_BIAS_DISABLED :
						 GPIOD_LINE_BIAS_AS_IS;
	struct gpiod_line_settings *s;
	int ret, err;

	if (*cfg)
		return *cfg;
	s = gpiod_line_settings_new();
	if (!s)
		return NULL;
	ret = gpiod_line_settings_set_direction(s, dir);
	if (!ret && val >= 0)
		ret = gpiod_line_settings_set_output_value(s, out);
	if (!ret)
		ret = gpiod_line_settings_set_bias(s, bias);
	if (!ret) {
		*cfg = gpiod_line_config_new();
		ret = *cfg ? gpiod_line_config_add_line_settings(*cfg, &l->off,
								 1, s) : -1;
	}
	err = errno;
	gpiod_line_settings_free(s);
	if (ret && *cfg) {
		/* gpiod_line_config_free() does not take NULL. */
		gpiod_line_config_free(*cfg);
		*cfg = NULL;
	}
	errno = err;
	return *cfg;
}

int hw_line_request(struct hw_line *l, const char *consumer, int val,
		    bool no_pull)
{
	struct gpiod_request_config *rc;
	struct gpiod_line_config *lc;
	int err;

	l->no_pull = no_pull;
	lc = config(l, val);
	if (!lc)
		return -1;
	rc = gpiod_request_config_new();
	if (!rc)
		return -1;
	gpiod_request_config_set_consumer(rc, consumer);
	l->req = gpiod_chip_request_lines(l->chip->chip, rc, lc);
	err = errno;
	gpiod_request_config_free(rc);
	errno = err;
	return l->req ? 0 : -1;
}

const char *hw_line_consumer(struct hw_line *l)
{
	struct gpiod_line_info *info;
	const char *who;

	info = gpiod_chip_get_line_info(l->chip->chip, l->off);
	if (!info)
		return NULL;
	who = gpiod_line_info_get_consumer(info);
	if (who)
		snprintf(l->consumer, sizeof(l->consumer), "%s", who);
	gpiod_line_info_free(info);
	return who ? l->consumer : NULL;
}

int hw_line_get_value(struct hw_line *l)
{
	return gpiod_line_request_get_value(l->req, l->off);
}

int hw_line_set_value(struct hw_line *l, int val)
{
	return gpiod_line_request_set_value(l->req, l->off,
					    val ? GPIOD_LINE_VALUE_ACTIVE :
						  GPIOD_LINE_VALUE_INACTIVE);
}

static int reconfigure(struct hw_line *l, int val)
{
	struct gpiod_line_config *lc = config(l, val);

	if (!lc)
		return -1;
	return gpiod_line_request_reconfigure_lines(l->req, lc);
}

int hw_line_output(struct hw_line *l, int val)
{
	return reconfigure(l, val);
}

int hw_line_input(struct hw_line *l)
{
	return reconfigure(l, -1);
}
