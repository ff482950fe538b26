/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Can KVM run guest code here, within a time bound? (see vm_kvm_probe.c) */
#ifndef LRUBENCH_VM_KVM_PROBE_H
#define LRUBENCH_VM_KVM_PROBE_H

#include "core/util.h"

/* 0: a tiny guest ran and halted; 1: unusable, why says so. */
int kvm_probe(const char *dev, double timeout, struct strbuf *why);

#endif
