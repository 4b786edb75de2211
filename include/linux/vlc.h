/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel interfaces between the layers of the visible-light
 * communication (VLC) driver.
 */
#ifndef _LINUX_VLC_H
#define _LINUX_VLC_H

#include <linux/types.h>

/**
 * struct vlc_pin_ops - what the PHY needs from the pins
 * @emit: switch the TX LED on or off at @t_ns (the time of the call).
 * @rx_begin: start measuring light at @t_ns.
 * @rx_end: stop measuring at @t_ns and return the mean light intensity over
 *	the window, in linear units of the backend's choice (0 = dark).
 * @can_sleep: the callbacks may sleep; the PHY must then be driven from a
 *	thread, never from an hrtimer.
 * @shared_led: one LED both emits and senses; the PHY never measures a
 *	slot in which it emits, and switches the LED off before rx_begin().
 *
 * The PHY never knows whether it drives a GPIO, an ADC or the simulator,
 * in the spirit of struct i2c_algo_bit_data and struct mdiobb_ops.
 */
struct vlc_pin_ops {
	void (*emit)(void *ctx, bool on, u64 t_ns);
	void (*rx_begin)(void *ctx, u64 t_ns);
	u32 (*rx_end)(void *ctx, u64 t_ns);
	bool can_sleep;
	bool shared_led;
};

#endif /* _LINUX_VLC_H */
