#!/usr/bin/env bash
# The per-test controls through the admin API with curl, as someone with a container and no
# library uses them (docs/qa.md): a stub that patches a product, a stub the contract refuses, a
# fault on page 2 only, verify, a record edit seen by ID and in a list filter, and one reset.
# Usage: scripts/qa-controls-smoke.sh <origin, e.g. http://127.0.0.1:4010> <admin token>
# Exits 1 naming the first step that did not answer as documented. Run by scripts/ci-container.sh
# against the image, and by src/server/admin/curl-smoke.test.ts against the mock's command.
set -euo pipefail

origin="${1:?usage: qa-controls-smoke.sh <origin> <admin token>}"
token="${2:?usage: qa-controls-smoke.sh <origin> <admin token>}"
api="$origin/web-data/v1"
admin="$origin/__mock"
K='x-api-key: demo-production-key'
T="x-mock-admin-token: $token"
J='content-type: application/json'

fail() { echo "qa-controls-smoke: $*" >&2; exit 1; }
# status <expected> <what> curl-args...: the request's status must be <expected>.
status() {
  local expected="$1" what="$2" got
  shift 2
  got=$(curl -sS -o /dev/null -w '%{http_code}' "$@")
  [ "$got" = "$expected" ] || fail "$what: expected $expected, got $got"
}
# json <expression over `b`> < body: prints the expression's value (node reads the JSON).
json() { node -e "let t='';process.stdin.on('data',c=>t+=c).on('end',()=>{const b=JSON.parse(t);process.stdout.write(String($1))})"; }

status 200 'reset before' -X POST -H "$T" "$admin/reset"
id=$(curl -fsS -H "$K" "$api/products?limit=1" | json 'b.data[0].productId')
[ -n "$id" ] || fail 'no product to work with'
enc=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "$id")
match="{\"params\":{\"product_id\":$(node -e 'process.stdout.write(JSON.stringify(process.argv[1]))' "$id")}}"

status 201 'a stub: this product without images' -H "$T" -H "$J" \
  -d "{\"operationId\":\"getProduct\",\"match\":$match,\"patch\":{\"images\":[]}}" "$admin/stubs"
[ "$(curl -fsS -H "$K" "$api/products/$enc" | json 'b.images.length')" = 0 ] ||
  fail 'the stubbed product still has images'
status 400 'a stub breaking a documented fact is refused' -H "$T" -H "$J" \
  -d '{"operationId":"getProduct","patch":{"images":"none"}}' "$admin/stubs"

status 201 'a fault on page 2 only' -H "$T" -H "$J" \
  -d '{"match":{"operationId":"listProducts","query":{"limit":2,"offset":1}},"status":500}' "$admin/faults"
status 200 'page 1 of the query' -H "$K" "$api/products?limit=2"
status 500 'page 2 of the query' -H "$K" "$api/products?limit=2&offset=1"

[ "$(curl -fsS -H "$T" -H "$J" -d '{"match":{"operationId":"getProduct"},"times":1}' \
  "$admin/requests/verify" | json 'b.ok')" = true ] || fail 'verify: the stubbed product was asked once'
# A pattern never received: ok false, and the closest requests named (near misses).
[ "$(curl -fsS -H "$T" -H "$J" -d '{"match":{"operationId":"getPackage"},"atLeast":1}' \
  "$admin/requests/verify" | json 'b.ok === false && b.nearMisses.length > 0')" = true ] ||
  fail 'verify: a request never sent must fail, naming the closest ones'

# A product's record is what its list serves (the by-ID answer leaves out the list's additionalDetails
# and relatedProducts, and a record must pass both: docs/library.md).
record=$(curl -fsS -H "$K" "$api/products?productId=$enc" | json 'JSON.stringify({...b.data[0], title: "Smoke-test product"})')
status 200 'a record edit' -X PUT -H "$T" -H "$J" -d "$record" "$admin/records/products/$enc"
[ "$(curl -fsS -H "$K" "$api/products/$enc" | json 'b.title')" = 'Smoke-test product' ] ||
  fail 'the edited record is not served by ID'

status 200 'one reset' -X POST -H "$T" "$admin/reset"
[ "$(curl -fsS -H "$T" "$admin/stubs" | json 'b.stubs.length')" = 0 ] || fail 'stubs left after reset'
status 200 'page 2 after reset' -H "$K" "$api/products?limit=2&offset=1"
[ "$(curl -fsS -H "$K" "$api/products/$enc" | json 'b.title')" != 'Smoke-test product' ] ||
  fail 'the record edit survived the reset'
echo 'qa-controls-smoke: stub, refusal, page-2 fault, verify, record edit and reset answered as documented'
