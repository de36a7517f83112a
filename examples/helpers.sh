# The shell functions the README's blocks use, loaded with `. examples/helpers.sh` at the
# repository root. Each block runs in its own `bash -euo pipefail`, so the first call that
# fails stops it, with the service's answer on screen, and nothing after it runs.
# They need bash, curl and node (the repository's).

# need VAR...: stops unless each variable is set (the `export` lines `pnpm start` printed).
need() {
  local name
  for name in "$@"; do
    if [ -z "${!name:-}" ]; then
      echo "$name is not set: paste the export lines the API printed at its start into this shell first" >&2
      return 1
    fi
  done
}

# call TOKEN CURL_ARGS...: a request with that bearer credential and a JSON body; prints the
# answer. An error answer is printed on stderr as the service sent it, and the call fails.
call() {
  local token=$1 answer status method=GET url='' prev='' arg
  shift
  for arg in "$@"; do
    [ "$prev" = -X ] && method=$arg
    case $arg in http://* | https://*) url=$arg ;; esac
    prev=$arg
  done
  answer=$(curl -sS -w '\n%{http_code}' -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' "$@") || {
    echo "no answer from $method $url: is the API running?" >&2
    return 1
  }
  status=${answer##*$'\n'}
  answer=${answer%$'\n'*}
  if [ "$status" -lt 200 ] || [ "$status" -gt 299 ]; then
    echo "$method $url answered $status: $answer" >&2
    return 1
  fi
  printf '%s\n' "$answer"
}

# api / ops CURL_ARGS...: a call with the provider key / the backoffice token.
api() { call "$API_KEY" "$@"; }
ops() { call "$BACKOFFICE_TOKEN" "$@"; }

# refused CODE COMMAND...: COMMAND is expected to be refused with that error code; prints the
# refusal, and fails when COMMAND succeeds or is refused for anything else.
refused() {
  local code=$1 answer
  shift
  if answer=$("$@" 2>&1); then
    echo "expected $code, but it succeeded: $answer" >&2
    return 1
  fi
  case $answer in
    *"\"code\":\"$code\""*) printf '%s\n' "$answer" ;;
    *)
      echo "expected $code, but: $answer" >&2
      return 1
      ;;
  esac
}

# field EXPR: the EXPR of the JSON on stdin (`.mapping[0].tableId`, `.orders.find(...).id`);
# fails, naming EXPR, when the answer has no such thing.
field() {
  node -e '
    const text = require("fs").readFileSync(0, "utf8");
    let value;
    try {
      value = new Function("json", "return json" + process.argv[1])(JSON.parse(text));
    } catch {}
    if (value === undefined || value === null) {
      console.error(`the answer has no ${process.argv[1]}: ${text.slice(0, 500)}`);
      process.exit(1);
    }
    console.log(value);
  ' "$1"
}

# local_webhooks: the receivers of these blocks listen on http://127.0.0.1, which the API
# accepts only when started with WEBHOOK_ALLOW_INSECURE_URLS and WEBHOOK_ALLOW_PRIVATE_URLS;
# its GET /healthz tells. Stops, saying how to restart it, before anything is changed.
local_webhooks() {
  local health
  health=$(curl -sS "$PIS/healthz") || {
    echo "no answer from $PIS: start the API first (pnpm start)" >&2
    return 1
  }
  if [ "$(printf '%s' "$health" | field .webhookAllowInsecureUrls)" = true ] &&
    [ "$(printf '%s' "$health" | field .webhookAllowPrivateUrls)" = true ]; then
    return 0
  fi
  echo "The API at $PIS refuses plain-HTTP and loopback webhook URLs ($health), and the" >&2
  echo "receiver of this block listens on http://127.0.0.1. Stop the API (Ctrl-C) and start it with:" >&2
  echo "  WEBHOOK_ALLOW_INSECURE_URLS=true WEBHOOK_ALLOW_PRIVATE_URLS=true pnpm start" >&2
  echo "(the export lines stay the same), then paste this block again. Nothing was changed." >&2
  return 1
}

# run_dir NAME: makes and prints ${TMPDIR:-/tmp}/pis-NAME, where a block keeps its scratch files.
run_dir() {
  local dir="${TMPDIR:-/tmp}"
  dir="${dir%/}/pis-$1"
  mkdir -p "$dir"
  echo "$dir"
}

# receiver PORT SECRET LOG: starts the verifying webhook receiver on 127.0.0.1:PORT in the
# background, its output in LOG, waits until it answers, and stops it when the block ends.
receiver() {
  WEBHOOK_SECRET=$2 PORT=$1 node --import tsx tools/webhook-receiver/src/receiver.ts >"$3" 2>&1 &
  RECEIVER=$!
  trap 'kill "$RECEIVER" 2>/dev/null || true' EXIT
  until curl -fs "http://127.0.0.1:$1/" >/dev/null; do
    if ! kill -0 "$RECEIVER" 2>/dev/null; then
      echo "the webhook receiver did not start:" >&2
      cat "$3" >&2
      return 1
    fi
    sleep 0.2
  done
}

# delivered LOG TYPE [CALLER BASE]: waits (30 s at most) until the receiver writing LOG has
# verified a TYPE webhook and, given the function that calls the provider API (api, ...) and
# its base URL, until no delivery of the location is pending; then prints LOG.
delivered() {
  local log=$1 type=$2 tries=0
  until grep -q "^verified $type " "$log" &&
    { [ $# -lt 4 ] || [ "$("$3" "$4/webhook-deliveries?status=pending&limit=1" | field .deliveries.length)" = 0 ]; }; do
    if [ $((tries += 1)) -gt 150 ]; then
      echo "no $type webhook was verified within 30 s; the receiver printed:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.2
  done
  cat "$log"
}
