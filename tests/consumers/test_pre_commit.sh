#!/usr/bin/env bash
# The pre-commit hook (c/cli/juliet-pre-commit) in a scratch git repository:
# a good world commits; a broken file is refused with its diagnostic; the
# hook checks what is staged, not the work tree; folder names with a newline
# or a leading dash are paths, not separators or options.
#   test_pre_commit.sh HOOK JULIET SCRATCH
set -euo pipefail
hook=$1 juliet=$2 scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
git init -q repo
cd repo
git config user.email ci@example.com
git config user.name ci
cp "$hook" .git/hooks/pre-commit
export JULIET=$juliet

fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir levels
"$juliet" gen levels/forest --count 20 >/dev/null
echo "notes" >README.txt
git add . && git commit -q -m "a good world" || fail "a good world was refused"

file=$(ls levels/forest/Entities/*.jasset | head -1)
good=$(cat "$file")
sed '/^; position$/{n;s/.*/1 2/}' <<<"$good" >"$file" # two numbers where three belong
git add "$file"
if git commit -q -m "a broken file" 2>../err.txt; then fail "a broken file was committed"; fi
grep -q "^$file:[0-9]*:[0-9]*: " ../err.txt || fail "no path:line:col diagnostic: $(cat ../err.txt)"
grep -q "commit refused: the world 'levels/forest'" ../err.txt || fail "no refusal message: $(cat ../err.txt)"

# Staged good text, broken work tree: the commit stores the good text.
sed '/^; position$/{n;s/.*/1 2 3/}' <<<"$good" >"$file"
git add "$file"
echo "garbage" >"$file"
git commit -q -m "good staged text" || fail "the staged good text was refused"

# A commit that touches no world is not checked.
echo "more" >>README.txt
git add README.txt && git commit -q -m "docs" || fail "a commit without worlds was refused"

# A world folder whose name holds a newline is checked as one folder.
nl=$'nl\nw'
"$juliet" gen "$nl" --count 3 >/dev/null
files=("$nl"/Entities/*.jasset)
file=${files[0]}
sed -i '/^; position$/{n;s/.*/1 2/}' "$file"
git add -- "$nl"
if git commit -q -m "a broken world with a newline in its name" 2>../err.txt; then
  fail "a broken file in a folder named with a newline was committed"
fi
grep -q "commit refused: the world 'nl" ../err.txt || fail "no refusal message: $(cat ../err.txt)"
git rm -rq --cached -- "$nl" && rm -rf -- "$nl"

# A valid world whose name starts with a dash is not taken for an option.
"$juliet" gen ./-x --count 3 >/dev/null
git add -- -x
git commit -q -m "a world named -x" 2>../err.txt || fail "a valid world named -x was refused: $(cat ../err.txt)"
cd / && rm -rf "$scratch"
echo "ok"
