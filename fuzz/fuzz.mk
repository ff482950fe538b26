# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzing (issue 12), included by the Makefile.
# make fuzz   libFuzzer binaries build/fuzz/fuzz_<name> (clang, libclang-rt-14-dev)
#             with ASan and UBSan; bench/fuzz SECONDS runs them.
# The seed corpora are replayed by the unit test test_fuzz_corpus
# (fuzz/replay_test.c), built by the normal cc: every harness with its entry
# point renamed.
FUZZ_NAMES := results config sysbench kimage archive_policy perf plan manifest render
FUZZ_CC ?= clang
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
FUZZ_BUILD := build/fuzz
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(LIB_SRCS))
FUZZ_REPLAY_OBJS := $(patsubst %,$(BUILD)/fuzz/replay_%.o,$(FUZZ_NAMES))

# -MMD -MP as for every object: a harness holds the library's structs on its
# stack (struct comparison), so one built against an older header corrupts it
$(BUILD)/fuzz/replay_%.o: fuzz/fuzz_%.c fuzz/fuzz.h Makefile fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) -I. -DLLVMFuzzerTestOneInput=fuzz_one_$* -MMD -MP -c -o $@ $<

-include $(FUZZ_REPLAY_OBJS:.o=.d)

# Not a tests/unit/test_*.c: bench/mutate builds those with the library
# objects alone, and this one needs the harnesses too.
$(BUILD)/tests/test_fuzz_corpus: fuzz/replay_test.c $(FUZZ_REPLAY_OBJS) $(LIB_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(FUZZ_REPLAY_OBJS) $(LIB_OBJS) $(LIBS) -lcmocka

tests: $(BUILD)/tests/test_fuzz_corpus

$(FUZZ_BUILD)/%.o: %.c Makefile fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(XCFLAGS) -Wno-format-nonliteral -I. -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_OBJS) $(LIBS)

-include $(FUZZ_LIB_OBJS:.o=.d) $(patsubst %,$(FUZZ_BUILD)/fuzz/fuzz_%.d,$(FUZZ_NAMES))

fuzz: $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_NAMES))

.PHONY: fuzz
