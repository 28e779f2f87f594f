#!/usr/bin/env bash
# Build a Markdown changelog from `git log`, grouped by Conventional Commit type.
#
# INPUT_JSON (flat JSON object; only bash and git are needed, no jq):
#   {"repo": "/path/to/repo", "since": "v1.2.0", "until": "HEAD", "max_commits": 200,
#    "include_merges": false, "title": "Release notes"}
# Every field is optional. Without "since" the range starts at the latest tag reachable
# from "until" (or the whole history when there is none). "since <ref>" and an existing
# folder path inside "task" are understood too.
# Exit codes: 0 ok, 1 bad input, 3 git missing.
set -euo pipefail

die() {
  printf 'git-changelog: %s\n' "$1" >&2
  exit "${2:-1}"
}

input="${INPUT_JSON:-}"
trimmed="${input#"${input%%[![:space:]]*}"}"
trimmed="${trimmed%"${trimmed##*[![:space:]]}"}"
[[ -n "$trimmed" ]] || die 'INPUT_JSON is empty. Pass e.g. {"repo": "/path/to/repo", "since": "v1.0.0"}.'
[[ "$trimmed" == \{*\} ]] || die 'INPUT_JSON must be a JSON object, e.g. {"repo": "."}.'

# json_get KEY -> prints the value of a top-level string, number or boolean field.
# A small reader for flat objects: enough for this skill's input, not a general parser.
json_get() {
  local key="$1" re_str re_lit value
  re_str="\"$key\"[[:space:]]*:[[:space:]]*\"(([^\"\\\\]|\\\\.)*)\""
  re_lit="\"$key\"[[:space:]]*:[[:space:]]*(true|false|null|-?[0-9]+)"
  if [[ "$trimmed" =~ $re_str ]]; then
    value="${BASH_REMATCH[1]}"
    value="${value//\\\"/\"}"
    value="${value//\\\//\/}"
    value="${value//\\n/$'\n'}"
    value="${value//\\t/$'\t'}"
    value="${value//\\\\/\\}"
    printf '%s' "$value"
  elif [[ "$trimmed" =~ $re_lit ]]; then
    [[ "${BASH_REMATCH[1]}" == null ]] || printf '%s' "${BASH_REMATCH[1]}"
  fi
}

command -v git >/dev/null 2>&1 || die 'git not found on PATH. Install git (Debian/Ubuntu: sudo apt-get install git; macOS: xcode-select --install).' 3

task="$(json_get task)"
repo="$(json_get repo)"
[[ -n "$repo" ]] || repo="$(json_get path)"
since="$(json_get since)"
until_ref="$(json_get until)"
max_commits="$(json_get max_commits)"
include_merges="$(json_get include_merges)"
title="$(json_get title)"

if [[ -z "$repo" && -n "$task" ]]; then
  # First token of the task that is an existing directory, e.g. "changelog for ~/src/app".
  set -f # the task is user text: no globbing while splitting it into words
  for word in $task; do
    word="${word%[.,;:!?)]}"
    word="${word#[(]}"
    [[ "$word" == "~"* ]] && word="${HOME}${word:1}"
    if [[ ( "$word" == /* || "$word" == ./* || "$word" == ../* ) && -d "$word" ]]; then
      repo="$word"
      break
    fi
  done
  set +f
fi
if [[ -z "$since" && -n "$task" ]]; then
  since_re='(since|from|after)[[:space:]]+(tag[[:space:]]+)?([A-Za-z0-9._/-]*[0-9][A-Za-z0-9._/-]*)'
  if [[ "$task" =~ $since_re ]]; then
    since="${BASH_REMATCH[3]%.}"
  fi
fi

repo="${repo:-.}"
[[ "$repo" == "~"* ]] && repo="${HOME}${repo:1}"
until_ref="${until_ref:-HEAD}"
max_commits="${max_commits:-200}"
[[ "$max_commits" =~ ^[0-9]+$ && "$max_commits" -ge 1 && "$max_commits" -le 5000 ]] ||
  die '"max_commits" must be a number from 1 to 5000.'
[[ -z "$include_merges" || "$include_merges" == true || "$include_merges" == false ]] ||
  die '"include_merges" must be true or false.'

[[ -d "$repo" ]] || die "repo folder not found: $repo"
git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  git -C "$repo" rev-parse --is-bare-repository >/dev/null 2>&1 ||
  die "not a git repository: $repo (pass \"repo\" with the path of a git checkout)"
git -C "$repo" rev-parse --verify -q "${until_ref}^{commit}" >/dev/null ||
  die "unknown ref \"$until_ref\" in $repo (the repository may have no commits yet)"

if [[ -z "$since" ]]; then
  since="$(git -C "$repo" describe --tags --abbrev=0 "$until_ref" 2>/dev/null || true)"
  # When HEAD is exactly the latest tag, describe the previous release instead.
  if [[ -n "$since" && "$(git -C "$repo" rev-parse "${since}^{commit}")" == "$(git -C "$repo" rev-parse "${until_ref}^{commit}")" ]]; then
    since="$(git -C "$repo" describe --tags --abbrev=0 "${until_ref}^" 2>/dev/null || true)"
  fi
else
  git -C "$repo" rev-parse --verify -q "${since}^{commit}" >/dev/null ||
    die "unknown ref \"$since\" in $repo. Tags: $(git -C "$repo" tag --sort=-creatordate | head -5 | tr '\n' ' ')"
fi

range="$until_ref"
[[ -n "$since" ]] && range="${since}..${until_ref}"
merge_flag=(--no-merges)
[[ "$include_merges" == true ]] && merge_flag=()

declare -A section_items=()
order=(breaking feat fix perf refactor docs test build chore revert other)
declare -A section_title=(
  [breaking]='⚠ Breaking changes' [feat]='Features' [fix]='Bug fixes' [perf]='Performance'
  [refactor]='Refactoring' [docs]='Documentation' [test]='Tests' [build]='Build and CI'
  [chore]='Chores' [revert]='Reverts' [other]='Other changes'
)
conv_re='^([A-Za-z]+)(\(([^)]*)\))?(!)?:[[:space:]]*(.+)$'
count=0
first_date=''
last_date=''
declare -A authors=()

while IFS=$'\x1f' read -r -d $'\x1e' hash subject author day body; do
  hash="${hash##[[:space:]]}"
  hash="${hash//$'\n'/}"
  [[ -n "$hash" ]] || continue
  count=$((count + 1))
  authors["$author"]=1
  [[ -z "$last_date" ]] && last_date="$day"
  first_date="$day"
  type='other'
  scope=''
  text="$subject"
  breaking=''
  if [[ "$subject" =~ $conv_re ]]; then
    type="$(tr '[:upper:]' '[:lower:]' <<<"${BASH_REMATCH[1]}")"
    scope="${BASH_REMATCH[3]}"
    breaking="${BASH_REMATCH[4]}"
    text="${BASH_REMATCH[5]}"
  else
    lower="$(tr '[:upper:]' '[:lower:]' <<<"$subject")"
    case "$lower" in
      fix* | bugfix* | hotfix*) type='fix' ;;
      add* | implement* | introduce* | support*) type='feat' ;;
      doc* | readme*) type='docs' ;;
      revert*) type='revert' ;;
    esac
  fi
  case "$type" in
    feat | feature) type='feat' ;;
    fix | bugfix | hotfix) type='fix' ;;
    perf | refactor | docs | test | revert) ;;
    tests) type='test' ;;
    build | ci) type='build' ;;
    chore | style | deps) type='chore' ;;
    *) type='other' ;;
  esac
  [[ "$body" == *'BREAKING CHANGE'* || "$body" == *'BREAKING-CHANGE'* ]] && breaking='!'
  line="- ${text}"
  [[ -n "$scope" ]] && line="- **${scope}:** ${text}"
  line="${line} (\`${hash}\`)"
  if [[ -n "$breaking" ]]; then
    section_items[breaking]+="${line}"$'\n'
  fi
  section_items[$type]+="${line}"$'\n'
done < <(git -C "$repo" log "${merge_flag[@]}" --max-count="$max_commits" --date=short \
  --pretty=format:'%h%x1f%s%x1f%an%x1f%ad%x1f%b%x1e' "$range")

name="$(basename "$(cd "$repo" && pwd)")"
label="${since:-the first commit}..${until_ref}"
printf '## %s\n\n' "${title:-Changelog: ${name} (${label})}"
if [[ "$count" -eq 0 ]]; then
  printf 'No commits in %s.\n' "$label"
  exit 0
fi
printf '_%d commit(s) by %d author(s), %s to %s._\n' "$count" "${#authors[@]}" "$first_date" "$last_date"
[[ "$count" -ge "$max_commits" ]] && printf '\n> Stopped at %d commits; pass "max_commits" or "since" to change the range.\n' "$max_commits"
for key in "${order[@]}"; do
  [[ -n "${section_items[$key]:-}" ]] || continue
  printf '\n### %s\n\n%s' "${section_title[$key]}" "${section_items[$key]}"
done
