#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sources completion/ddtime in a plain bash, sets COMP_* as readline would
# for a line typed up to the cursor, calls the completion function and
# checks COMPREPLY. Then checks that the words it offers are those that
# `ddtime --help` lists, both ways.
# Usage: bash_completion_test.sh COMPLETION_SCRIPT DDTIME_BINARY
set -u

script=$1
binary=$2
[[ $binary == /* ]] || binary=$PWD/$binary
passed=0
failed=0

# shellcheck source=../../completion/ddtime
source "$script" || { echo "cannot source $script"; exit 1; }

complete -p ddtime >/dev/null 2>&1 || { echo "FAIL: no completion registered for ddtime"; exit 1; }
function=$(complete -p ddtime | sed -n 's/.*-F \([^ ]*\).*/\1/p')

# Splits $1 as readline does with the default COMP_WORDBREAKS: at blanks, and
# around runs of the other break characters, which become words of their own.
set_comp_vars() {
    local line=$1 breaks=$' \t\n"\'@><=;|&(:' word= i c
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMP_WORDBREAKS=$breaks
    COMP_WORDS=()
    for ((i = 0; i < ${#line}; i++)); do
        c=${line:i:1}
        if [[ $c == [[:space:]] ]]; then
            [[ -n $word ]] && COMP_WORDS+=("$word")
            word=
        elif [[ $breaks == *"$c"* ]]; then
            [[ -n $word && $word != *[=:] ]] && { COMP_WORDS+=("$word"); word=; }
            word+=$c
        else
            [[ $word == *[=:] ]] && { COMP_WORDS+=("$word"); word=; }
            word+=$c
        fi
    done
    COMP_WORDS+=("$word")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
}

complete_line() {
    set_comp_vars "$1"
    COMPREPLY=()
    "$function" ddtime "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd' '
}

# expect LINE EXPECTED: the sorted completions, space-separated.
expect() {
    local got
    got=$(complete_line "$1")
    if [[ $got == "$2" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL: completing [%s]\n  expected: [%s]\n  got:      [%s]\n' "$1" "$2" "$got"
    fi
}

# check NAME CONDITION...: a named assertion run with eval.
check() {
    local name=$1
    shift
    if eval "$*"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL: %s\n' "$name"
    fi
}

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/disk images"
touch "$work/disk images/a.img" "$work/disk images/b.img" "$work/boot.img" "$work/notes.txt"
cd "$work" || exit 1

# Operand names, with the '=' typed or not.
expect "ddtime i" "ibs= if= iflag= iseek="
expect "ddtime co" "conv= count="
expect "ddtime bs=4M s" "seek= skip= status="
expect "ddtime bs=4" ""

# Words for conv=, iflag=, oflag= and status=: after '=' readline replaces
# only what follows it, so the completions hold the list items.
expect "ddtime conv=" "ascii block ebcdic excl fdatasync fsync ibm lcase nocreat noerror notrunc sparse swab sync ucase unblock"
expect "ddtime conv=no" "nocreat noerror notrunc"
expect "ddtime conv=ucase,no" "ucase,nocreat ucase,noerror ucase,notrunc"
expect "ddtime conv=ucase,notrunc,s" "ucase,notrunc,sparse ucase,notrunc,swab ucase,notrunc,sync"
expect "ddtime conv=notrunc,no" "notrunc,nocreat notrunc,noerror"
expect "ddtime iflag=full" "fullblock"
expect "ddtime iflag=direct,c" "direct,count_bytes"
expect "ddtime oflag=s" "seek_bytes sync"
expect "ddtime oflag=direct,full" ""
expect "ddtime status=no" "none noxfer"
expect "ddtime status=p" "progress"

# File names for if= and of=, directories included.
expect "ddtime if=b" "boot.img"
expect "ddtime of=disk" "disk images"
expect "ddtime if=disk\\ images/" "disk images/a.img disk images/b.img"
expect "ddtime bs=1M if=no" "notes.txt"

# The --long options and their values.
expect "ddtime --" "--align= --cache= --capacity --capacity= --compare --csv --csv= --direct --engine= --force --gnu --help --iodepth= --jobs= --json --json= --keep --latency --mix= --openmetrics= --pattern= --pause= --preallocate --profile= --progress --ramp= --random --random= --readback --repeat= --size= --split-times --steady --steady= --svg= --sweep= --time= --timeline --timeline= --units= --verify --version --warmup="
expect "ddtime --profile=" "diskmark flash nvme peak real"
expect "ddtime --profile=n" "nvme"
expect "ddtime --cache=c" "cold cold-system"
expect "ddtime --c" "--cache= --capacity --capacity= --compare --csv --csv="
expect "ddtime --capacity=" "full quick"
expect "ddtime --pattern=" "ones random stamp zero"
expect "ddtime --re" "--readback --repeat="
expect "ddtime --ra" "--ramp= --random --random="
expect "ddtime --ti" "--time= --timeline --timeline="
expect "ddtime --s" "--size= --split-times --steady --steady= --svg= --sweep="
expect "ddtime --sw" "--sweep="
expect "ddtime --sweep=" "bs= iodepth="
expect "ddtime --sweep=i" "iodepth="
expect "ddtime --sweep=bs=4k" ""
expect "ddtime --units=b" "both bytes"
expect "ddtime --engine=" "auto io_uring libaio sync threads"
expect "ddtime --engine=t" "threads"
expect "ddtime if=boot.img --json=no" "notes.txt"

# Without COMP_LINE (as when called by another completion), the word is
# rebuilt from COMP_WORDS.
rebuilt=$(
    set_comp_vars "ddtime conv=ucase,no"
    unset COMP_LINE COMP_POINT
    COMPREPLY=()
    "$function" ddtime
    printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd' '
)
check "rebuilds the word from COMP_WORDS: got [$rebuilt]" '[[ $rebuilt == "ucase,nocreat ucase,noerror ucase,notrunc" ]]'

# With '=' removed from COMP_WORDBREAKS the whole word is replaced.
whole=$(
    set_comp_vars "ddtime status=p"
    COMP_WORDBREAKS=$' \t\n'
    COMP_WORDS=(ddtime status=p)
    COMP_CWORD=1
    COMPREPLY=()
    "$function" ddtime
    printf '%s\n' "${COMPREPLY[@]}"
)
check "completes the whole word without '=' as a break: got [$whole]" '[[ $whole == "status=progress" ]]'

# The words offered are those of --help, both ways.
help=$("$binary" --help) || { echo "FAIL: $binary --help"; exit 1; }
section() { # Words of the entries under the heading that contains $1.
    awk -v heading="$1" '
        /^[^ ]/ { inside = index($0, heading) > 0 && /:$/; next }
        inside && /^  [a-z]/ { print $1 }' <<<"$help" | sed 's/=.*//' | LC_ALL=C sort | paste -sd' '
}
offered() { # Sorted words offered for the line $1, without the list prefix.
    complete_line "$1" | tr ' ' '\n' | sed 's/=$//' | LC_ALL=C sort -u | paste -sd' '
}
same() {
    if [[ $2 == "$3" ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL: %s differ\n  --help:     [%s]\n  completion: [%s]\n' "$1" "$2" "$3"
    fi
}
same "operands" "$(section Operands)" "$(offered "ddtime ")"
same "conversions" "$(section conv=)" "$(offered "ddtime conv=")"
same "status levels" "$(section status=)" "$(offered "ddtime status=")"
flags=$( (complete_line "ddtime iflag="; complete_line "ddtime oflag=") | tr ' ' '\n' | LC_ALL=C sort -u | paste -sd' ')
same "iflag and oflag flags" "$(section iflag=)" "$flags"
long_help=$(sed -n 's/^ *--\([a-z0-9-]*\).*/\1/p' <<<"$help" | LC_ALL=C sort -u | paste -sd' ')
long_offered=$(complete_line "ddtime --" | tr ' ' '\n' | sed 's/^--//; s/=$//' | LC_ALL=C sort -u | paste -sd' ')
same "long options" "$long_help" "$long_offered"
# The presets --help names in --profile's line, "(diskmark, nvme, ...)".
presets_help=$(awk '/^ *--profile=NAME/ { inside = 1 } inside && /^ *--/ && !/--profile=/ { exit } inside { printf "%s ", $0 }' \
    <<<"$help" | sed -n 's/.*does (\([^)]*\)).*/\1/p' | tr -d ',' | tr -s ' ' '\n' | sed '/^$/d' | LC_ALL=C sort |
    paste -sd' ')
same "profile presets" "$presets_help" "$(offered "ddtime --profile=")"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
