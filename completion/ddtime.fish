# SPDX-License-Identifier: GPL-3.0-or-later
# fish completion for ddtime
#
# Completes dd's operands (if= and of= with file names; conv=, iflag=,
# oflag= and status= with their words, comma lists included) and ddtime's
# --long options with their values. The word lists are those of
# completion/ddtime (bash) and completion/_ddtime (zsh); tests/completion
# checks each against `ddtime --help`.

function __ddtime_operands
    printf '%s\t%s\n' \
        if= 'take input from FILE' \
        of= 'send output to FILE' \
        ibs= 'read input blocks of BYTES bytes' \
        obs= 'write output blocks of BYTES bytes' \
        bs= 'use BYTES for both block sizes' \
        cbs= 'record length for block and unblock' \
        skip= 'pass over N input blocks' \
        iseek= 'another name for skip=' \
        seek= 'move past N output blocks' \
        oseek= 'another name for seek=' \
        count= 'stop after N input blocks' \
        conv= 'conversions to apply' \
        iflag= 'how to read the input' \
        oflag= 'how to write the output' \
        status= 'how much to report on standard error'
end

function __ddtime_conv_words
    printf '%s\t%s\n' \
        ascii 'EBCDIC to ASCII, then unblock' \
        ebcdic 'ASCII to EBCDIC, then block' \
        ibm 'ASCII to IBM EBCDIC, then block' \
        block 'lines into cbs-byte records' \
        unblock 'cbs-byte records into lines' \
        lcase 'upper case to lower case' \
        ucase 'lower case to upper case' \
        sparse 'seek over all-zero output blocks' \
        swab 'exchange the bytes of every pair' \
        sync 'fill short input blocks up to ibs' \
        excl 'fail if the output exists already' \
        nocreat 'fail if the output does not exist' \
        notrunc 'keep the output file\'s length' \
        noerror 'go on after read errors' \
        fdatasync 'flush the data before exiting' \
        fsync 'flush data and metadata before exiting'
end

# Each side is offered only the flags that act on it: GNU refuses
# oflag=fullblock and accepts, but ignores, append on the input and the
# count/skip byte flags on the output (seek_bytes likewise on the input).
function __ddtime_iflag_words
    printf '%s\t%s\n' \
        direct 'bypass the page cache' \
        directory 'fail unless a directory' \
        dsync 'synchronized I/O for the data' \
        sync 'synchronized I/O for data and metadata' \
        fullblock 'read until each block is full' \
        nonblock 'open without blocking' \
        noatime 'leave the access time alone' \
        nocache 'drop the file\'s cached pages' \
        noctty 'never the controlling terminal' \
        nofollow 'refuse to follow a symbolic link' \
        count_bytes 'count= in bytes' \
        skip_bytes 'skip= in bytes'
end

function __ddtime_oflag_words
    printf '%s\t%s\n' \
        append 'open the output for appending' \
        direct 'bypass the page cache' \
        directory 'fail unless a directory' \
        dsync 'synchronized I/O for the data' \
        sync 'synchronized I/O for data and metadata' \
        nonblock 'open without blocking' \
        noatime 'leave the access time alone' \
        nocache 'drop the file\'s cached pages' \
        noctty 'never the controlling terminal' \
        nofollow 'refuse to follow a symbolic link' \
        seek_bytes 'seek= in bytes'
end

function __ddtime_status_words
    printf '%s\t%s\n' \
        none 'report errors only' \
        noxfer 'leave out the transfer statistics' \
        progress 'show the amount copied and the rate'
end

# The candidates for the token under the cursor when it is an operand.
function __ddtime_complete_operand
    # The token as typed, its quotes and backslashes removed.
    set -l token (commandline -ct | string unescape)
    string match -q -- '-*' $token; and return
    set -l name (string split -m1 = -- $token)[1]
    switch $token
        case 'if=*' 'of=*'
            set -l value (string replace -- "$name=" '' $token)
            printf '%s\n' $name=(__fish_complete_path $value)
        case 'conv=*' 'iflag=*' 'oflag=*'
            # A comma list: complete its last item, after those typed.
            set -l value (string replace -- "$name=" '' $token)
            set -l typed (string split , -- $value)
            set -l head (string replace -r -- '[^,]*$' '' $value)
            for line in (__ddtime_"$name"_words)
                set -l word (string split -m1 \t -- $line)[1]
                contains -- $word $typed[1..-2]; and continue
                printf '%s\n' "$name=$head$line"
            end
        case 'status=*'
            printf '%s\n' status=(__ddtime_status_words)
        case '*=*'
            # Sizes and counts: nothing sensible to offer.
        case '*'
            __ddtime_operands
    end
end

complete -c ddtime -f -a '(__ddtime_complete_operand)'

complete -c ddtime -l help -d 'show the help, then exit'
complete -c ddtime -l version -d 'show the version, then exit'
complete -c ddtime -l gnu -d 'print only what GNU dd would print'
complete -c ddtime -l json -F -d 'one JSON object per run, to PATH or stderr'
complete -c ddtime -l csv -F -d 'one CSV line per run, to PATH or stderr'
complete -c ddtime -l svg -r -F -d 'draw what was measured as an SVG chart'
complete -c ddtime -l openmetrics -r -F -d 'what was measured, in Prometheus\'s format'
complete -c ddtime -l units -x -a 'si iec both bytes all' -d 'units of the rates'
complete -c ddtime -l split-times -d 'time read and write calls separately'
complete -c ddtime -l align -x -d 'align buffers to N bytes'
complete -c ddtime -l direct -d 'iflag=direct and oflag=direct where they apply'
complete -c ddtime -l progress -d 'show percentage, rate and time left'
complete -c ddtime -l iodepth -x -d 'keep up to N reads and writes in flight'
complete -c ddtime -l jobs -x -d 'N submitting threads'
complete -c ddtime -l engine -x -a 'auto io_uring threads libaio sync' -d 'what moves the bytes'
complete -c ddtime -l repeat -x -d 'run the copy N times'
complete -c ddtime -l warmup -x -d 'run the copy M times first, unmeasured'
complete -c ddtime -l sweep -x -a 'bs= iodepth=' -d 'one row per setting'
complete -c ddtime -l readback -d 'write, flush, then read the output back'
complete -c ddtime -l verify -d 'compare the bytes read back with those written'
complete -c ddtime -l preallocate -d 'reserve the whole output first'
complete -c ddtime -l pattern -x -a 'zero ones random stamp' -d 'copy generated bytes instead of if='
complete -c ddtime -l mix -x -d 'read and write of= at once: PERCENT reads'
complete -c ddtime -l latency -d 'time every read and write'
complete -c ddtime -l random -d 'copy the blocks in a random order'
complete -c ddtime -l time -x -d 'run each copy that long'
complete -c ddtime -l ramp -x -d 'with --time: copy that long first, unmeasured'
complete -c ddtime -l timeline -d 'sample the rate every INTERVAL'
complete -c ddtime -l steady -d 'with --time: end once the rate is steady'
complete -c ddtime -l force -d 'let a session write over a device or file in use'
complete -c ddtime -l capacity -a 'quick full' -d 'find what of= really holds, as f3probe, or every block as f3write and f3read'
complete -c ddtime -l keep -d 'with --capacity: write the probed blocks back'
complete -c ddtime -l compare -d 'compare the JSON documents named'
complete -c ddtime -l cache -x -a 'cold cold-system warm as-is' -d 'before each run'
complete -c ddtime -l size -x -d 'what each run copies'
complete -c ddtime -l profile -x -a 'diskmark nvme flash peak real' -d 'run a preset\'s tests'
complete -c ddtime -l pause -x -d 'with --profile: wait between tests'
