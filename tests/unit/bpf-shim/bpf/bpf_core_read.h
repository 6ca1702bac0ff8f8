/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once
#define bpf_core_enum_value(type, value) (value)
