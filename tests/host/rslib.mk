# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own lib/reed_solomon for the host builds (tests/host,
# tests/fuzz, tools/bench), compiled from the kernel source that
# scripts/ksrc.sh unpacks under the cache: no copy of it lives in this
# repository. Set TOP first. VLC_RS_KVER picks the series (ksrc.sh's
# default when empty), VLC_KSRC a tree of your own.
#
#   VLC_RS_SRCS      the library's source, to compile with the program
#   VLC_RS_CPPFLAGS  what a file that includes vlc_fec.h or <linux/rslib.h>
#                    needs: the options lib/reed_solomon tests, and the
#                    path of the kernel's <linux/rslib.h>
#   VLC_RS_CFLAGS    the warnings the kernel's file is built with here:
#                    ours, less those that kernel code does not promise

VLC_RS_KVER ?=
# "make clean" needs no kernel source
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
ifeq ($(VLC_KSRC),)
VLC_KSRC := $(shell VLC_KVER=$(VLC_RS_KVER) $(TOP)/scripts/ksrc.sh src)
endif
ifeq ($(wildcard $(VLC_KSRC)/lib/reed_solomon/reed_solomon.c),)
$(error no lib/reed_solomon under '$(VLC_KSRC)': scripts/ksrc.sh src failed)
endif
endif

VLC_RS_SRCS	:= $(VLC_KSRC)/lib/reed_solomon/reed_solomon.c
VLC_RS_DEPS	:= $(VLC_RS_SRCS) $(VLC_KSRC)/lib/reed_solomon/decode_rs.c \
		   $(VLC_KSRC)/lib/reed_solomon/encode_rs.c \
		   $(VLC_KSRC)/include/linux/rslib.h
VLC_RS_CPPFLAGS	:= -include $(TOP)/tests/host/include/linux/kconfig.h \
		   -DCONFIG_REED_SOLOMON=1 -DCONFIG_REED_SOLOMON_ENC8=1 \
		   -DCONFIG_REED_SOLOMON_DEC8=1 \
		   '-DVLC_KSRC_RSLIB_H="$(VLC_KSRC)/include/linux/rslib.h"'
VLC_RS_CFLAGS	:=
