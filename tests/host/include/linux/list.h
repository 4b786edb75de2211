/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim: the few doubly linked list helpers kernel libraries use. */
#ifndef _HOST_LINUX_LIST_H
#define _HOST_LINUX_LIST_H

#include <linux/kernel.h>
#include <linux/types.h>

#define LIST_HEAD(name)	struct list_head name = { &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void list_add(struct list_head *e, struct list_head *head)
{
	e->next = head->next;
	e->prev = head;
	head->next->prev = e;
	head->next = e;
}

static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = NULL;
	e->prev = NULL;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

#endif /* _HOST_LINUX_LIST_H */
