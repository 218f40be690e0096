#!/bin/sh
# SG3003: bash syntax in a sh script.
x=(a b); echo "${x[0]}" # want SG3003 "sh cannot run this"
