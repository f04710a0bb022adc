#!/usr/bin/env bash
# mur as the client under test of the MCP conformance suite's client scenarios.
#
# The suite runs `bash client.sh <server-url>` once per scenario, with the scenario's name in
# MCP_CONFORMANCE_SCENARIO, the revision in MCP_CONFORMANCE_PROTOCOL_VERSION and any data it
# gives the client in MCP_CONFORMANCE_CONTEXT (JSON). This script makes the calls a person would
# make with mur for that scenario: one `mur` process per call, `--protocol` set to the revision
# (2025-11-25 is the initialize session form), `--endpoint` the URL. $MUR is the mur binary.
#
# It exits 0 when every call ended as it should (a refused tool is meant to be refused), and
# names each call that did not on stderr (`client.sh: unexpected …`), which the test reads.
set -u
url=${!#}
scenario=${MCP_CONFORMANCE_SCENARIO:-}
revision=${MCP_CONFORMANCE_PROTOCOL_VERSION:-2026-07-28}
context=${MCP_CONFORMANCE_CONTEXT:-"{}"}
status=0

# OAuth: mur's settings for a protected server. Each scenario keeps its tokens in a state
# directory of its own; the suite's Client ID Metadata Document URL is mur's; pre-registered
# credentials come from the context.
XDG_STATE_HOME=$(mktemp -d)
export XDG_STATE_HOME
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
export MUR_OAUTH_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json
if client_id=$(jq -er '.client_id // empty' <<<"$context" 2>/dev/null); then
	export MUR_OAUTH_CLIENT_ID=$client_id
	MUR_OAUTH_CLIENT_SECRET=$(jq -r '.client_secret // empty' <<<"$context")
	export MUR_OAUTH_CLIENT_SECRET
fi

# mur EXPECTED_EXIT ARGS…: one call; a different exit is reported.
mur() {
	local expected=$1
	shift
	"$MUR" devtools --endpoint "$url" --protocol "$revision" "$@"
	local code=$?
	if [ "$code" != "$expected" ]; then
		echo "client.sh: unexpected exit $code (expected $expected) from: mur devtools $*" >&2
		status=1
	fi
}

case $scenario in
initialize | json-schema-ref-no-deref)
	mur 0 call tools/list
	;;
tools_call)
	mur 0 call tools/list
	# A derived verb: the tool's inputSchema makes `--a` and `--b` numbers.
	mur 0 add_numbers --a 2 --b 3
	;;
request-metadata)
	mur 0 call tools/list
	mur 0 call tools/call --args '{"name":"any","arguments":{}}'
	;;
elicitation-sep1034-client-defaults)
	# One field answered; the schema's defaults fill the rest.
	mur 0 call test_client_elicitation_defaults --answer verified=true
	;;
sse-retry)
	mur 0 call tools/list
	mur 0 call test_reconnection
	;;
sep-2322-client-request-state)
	# Each listed tool; the questions they ask are answered from `--answer`.
	tools=$("$MUR" devtools --endpoint "$url" --protocol "$revision" call tools/list)
	for tool in $(jq -r '.tools[].name' <<<"$tools"); do
		mur 0 call "$tool" --answer confirmed=true
	done
	;;
http-standard-headers)
	mur 0 call tools/list
	mur 0 call test_headers
	mur 0 call my-hyphenated-tool
	mur 0 call resources/list
	mur 0 call resources/read --args '{"uri":"file:///path/to/file%20name.txt"}'
	mur 0 call prompts/list
	mur 0 call prompts/get --args '{"name":"test_prompt"}'
	;;
http-custom-headers)
	# Derived verbs: mur knows each tool's inputSchema, so it mirrors its x-mcp-header arguments.
	calls=$(jq -c '.toolCalls[]' <<<"$context")
	while IFS= read -r call; do
		mur 0 "$(jq -r .name <<<"$call")" --args "$(jq -c .arguments <<<"$call")"
	done <<<"$calls"
	;;
http-invalid-tool-headers)
	# Every listed tool, each with a string for each required argument: mur calls the valid
	# one and refuses (exit 5) each whose x-mcp-header is invalid.
	tools=$("$MUR" devtools --endpoint "$url" --protocol "$revision" call tools/list)
	for tool in $(jq -r '.tools[].name' <<<"$tools"); do
		args=$(jq -c --arg t "$tool" '.tools[] | select(.name == $t)
			| .inputSchema | [(.required // [])[] | {(.): "x"}] | add // {}' <<<"$tools")
		if [ "$tool" = valid_tool ]; then expected=0; else expected=5; fi
		mur "$expected" "$tool" --args "$args"
	done
	;;
json-schema-2020-12-preservation)
	tools=$("$MUR" devtools --endpoint "$url" --protocol "$revision" call tools/list)
	schema=$(jq -c '.tools[] | select(.name == "json_schema_2020_12_tool") | .inputSchema' <<<"$tools")
	mur 0 call json_schema_echo --args "{\"schema\":$schema}"
	;;
auth/scope-retry-limit | auth/resource-mismatch | auth/iss-supported-missing | auth/iss-wrong-issuer | \
	auth/iss-unexpected | auth/iss-normalized | auth/metadata-issuer-mismatch)
	# The flow must stop: a scope that is never enough (after 3 authorizations), a resource
	# metadata document for another resource, an `iss` that is missing or not the issuer's, an
	# issuer that is not the one asked. The call fails (exit 2) and a person would not repeat it.
	mur 2 call tools/list
	;;
auth/client-credentials-* | auth/dpop* | auth/enterprise-managed-authorization | auth/wif-jwt-bearer)
	# Extensions mur does not implement (client credentials, DPoP, enterprise, workload identity).
	mur 2 call tools/list
	;;
auth/*)
	# The first call authorizes (discovery, registration, the authorization code with PKCE; the
	# suite's authorization server approves at once, so mur, with no terminal, fetches its page
	# and takes the redirect); the second reuses the kept token, or steps up, or follows a
	# changed authorization server.
	mur 0 call tools/list
	mur 0 call test-tool
	;;
*)
	echo "client.sh: no calls for scenario \`$scenario\`" >&2
	mur 0 call tools/list
	;;
esac
exit $status
