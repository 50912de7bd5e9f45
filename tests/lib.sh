# lib.sh - TAP helpers for the shell tests. Source it, call the checks, then
# `done_testing`. $NOUGHTS is the program under test.
: "${NOUGHTS:?NOUGHTS must name the program under test}"
tap_n=0
tap_failed=0

# ok COND_STATUS DESCRIPTION: report a result from the status of the last command
pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
fail() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }

# run ARGS...: run noughts, keeping stdout, stderr and status in $out, $err, $rc
run() {
	out=$("$NOUGHTS" "$@" 2>"$tmp_err" </dev/null)
	rc=$?
	err=$(cat "$tmp_err")
}

# expect_status N DESCRIPTION
expect_status() {
	if [ "$rc" -eq "$1" ]; then pass "$2"; else fail "$2 (status $rc, wanted $1; stderr: $err)"; fi
}

# expect_out TEXT DESCRIPTION: stdout equals TEXT
expect_out() {
	if [ "$out" = "$1" ]; then pass "$2"; else
		fail "$2"; printf '%s\n' "$out" | sed 's/^/# got: /'; printf '%s\n' "$1" | sed 's/^/# want: /'
	fi
}

# expect_grep PATTERN DESCRIPTION: stdout matches the extended regex
expect_grep() {
	if printf '%s\n' "$out" | grep -Eq -- "$1"; then pass "$2"; else
		fail "$2"; printf '%s\n' "$out" | head -20 | sed 's/^/# got: /'
	fi
}

# expect_error STATUS PATTERN DESCRIPTION: exit status, one line on stderr
# starting "noughts: " and matching PATTERN, nothing on stdout
expect_error() {
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ "$rc" -eq "$1" ] && [ "$lines" -eq 1 ] && [ -z "$out" ] &&
		printf '%s\n' "$err" | grep -Eq -- "^noughts: .*$2"; then
		pass "$3: $err"
	else
		fail "$3 (status $rc, wanted $1; stderr: $err; stdout: $out)"
	fi
}

tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
