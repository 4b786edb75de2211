/* SPDX-License-Identifier: GPL-2.0 */
/* The "vlc" generic netlink family (vlc_nl.c), registered by vlc.ko. */
#ifndef _VLC_NL_H
#define _VLC_NL_H

struct net_device;

int vlc_nl_init(void);
void vlc_nl_exit(void);
void vlc_nl_notify(struct net_device *ndev, u8 event, int neigh);

#endif /* _VLC_NL_H */
