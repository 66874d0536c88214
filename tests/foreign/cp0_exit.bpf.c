// SPDX-License-Identifier: GPL-2.0
/*
 * cp0_exit.bpf.c - cp0.bpf.c (a copy for an SQ_REWIND ring, SQEs at index
 * 0) that also says why it stopped, with the project's exit info
 * (progs/iou_exit_info.h): IOU_EXIT_ERROR when it gives up (globals
 * unset, the kernel took no SQE, a request failed), IOU_EXIT_DONE when
 * the copy is complete. `iouring-bpf run` takes the program's word: an
 * error exit info is a failed run (exit 1) whatever enter returned.
 *
 * Run:  iouring-bpf run cp0_exit.bpf.o            (exit 1: globals unset)
 *       iouring-bpf run cp0_exit.bpf.o --set input_fd=@IN \
 *           --set output_fd=@>OUT --set buf_addr,buf_size=@buf:64K
 */
#define CP0_EXIT_INFO
#include "cp0.bpf.c"
