# SPDX-License-Identifier: GPL-2.0-or-later
# make                 build ./lrubench
# make check           unit tests (cmocka) + integration tests (root, real kernel)
# make install         PREFIX=/usr/local DESTDIR=
# make WERROR=1        warnings are errors
# make SANITIZE=1      ASan + UBSan (objects kept apart in build/san)
# make fuzz            libFuzzer harnesses (fuzz/fuzz.mk, bench/fuzz)
VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/lrubench
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := json-c inih numa libcurl libarchive libcrypto

CFLAGS ?= -O2 -g
XCFLAGS := -std=gnu11 -Wall -Wextra -Wformat=2 -Wshadow -Wno-missing-field-initializers \
	-D_GNU_SOURCE -DLRUBENCH_VERSION='"$(VERSION)"' -DLRUBENCH_DATADIR='"$(DATADIR)"' \
	-Isrc $(shell $(PKG_CONFIG) --cflags $(PKGS))
LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -lpthread
BUILD := build/rel
ifeq ($(WERROR),1)
XCFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
XCFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
BUILD := build/san
endif

# Every .c below src/ is part of the program; main.c aside, every one is
# also linked into the unit tests (docs/ARCHITECTURE.md, "Layout").
SRCS := $(sort $(shell find src -name '*.c'))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(SRCS))
LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(HELPER_SRCS))

all: lrubench

lrubench: $(BUILD)/lrubench
	@cp $< $@.tmp && mv -f $@.tmp $@   # a running ./lrubench keeps its inode

$(BUILD)/lrubench: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

# -MMD -MP: each object depends on the headers it really includes.
$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJS:.o=.d)

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(LIBS) -lcmocka

$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

# helpers that drive src modules directly link with them
$(BUILD)/helpers/cgtool: tests/helpers/cgtool.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

tests: lrubench $(TEST_BINS) $(HELPER_BINS)

# Unit tests need no root; integration tests run the real binary as root and
# skip (with the reason) only where the machine lacks a feature.
include fuzz/fuzz.mk

check: tests
	@LRUBENCH_BUILD=$(BUILD) tests/run-tests

check-unit: tests
	@LRUBENCH_BUILD=$(BUILD) tests/run-tests --unit

install: lrubench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)/configs
	install -m 755 lrubench $(DESTDIR)$(BINDIR)/lrubench
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 configs/*.conf $(DESTDIR)$(DATADIR)/configs/

clean:
	rm -rf build lrubench

.PHONY: all check check-unit tests install clean
