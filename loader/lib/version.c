// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * version.c - the library's version: the macros of iouring-bpf.h as the
 * library was built with them (an application compares them with the
 * header it was built with)
 */
#include "engine.h"

#define IOU_STR_(x)	#x
#define IOU_STR(x)	IOU_STR_(x)

const char *iouring_bpf_version(void)
{
	return IOU_STR(IOURING_BPF_VERSION_MAJOR) "."
	       IOU_STR(IOURING_BPF_VERSION_MINOR) "."
	       IOU_STR(IOURING_BPF_VERSION_PATCH);
}
