#!/bin/dash
# SG1004: dash reads &> as & then >: the job runs with the caller's output
# and the redirection truncates the file in the foreground.
./server &>/dev/null & # want SG1004 "dash reads `&>` as `&` then `>`"
