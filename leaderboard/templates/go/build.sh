#!/bin/sh
# Builds this bot: generates the Go stubs from bot.proto (bot.pb.go, bot_grpc.pb.go, package
# main), then compiles the executable ./bot, the file the referee runs.
#
# Offline, with Debian's packaged Go libraries (apt-get install golang-go protobuf-compiler
# protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev golang-google-protobuf-dev): GOPATH
# mode over /usr/share/gocode, no module download. Anywhere else (HEGEMON_GO=modules, or no
# /usr/share/gocode): Go modules, go.mod's requirements fetched by `go mod tidy`.
set -eu
cd "$(dirname "$0")"
for tool in go protoc protoc-gen-go protoc-gen-go-grpc; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is not installed (see README.md)" >&2; exit 1; }
done
protoc -I. --go_out=. --go-grpc_out=. \
    --go_opt=paths=source_relative --go-grpc_opt=paths=source_relative \
    --go_opt=Mbot.proto=hegemonbot/main\;main --go-grpc_opt=Mbot.proto=hegemonbot/main\;main \
    bot.proto
gocode=/usr/share/gocode
export CGO_ENABLED=0 # a static binary: the sandbox needs no C library for it
if [ "${HEGEMON_GO:-}" != modules ] && [ -d "$gocode/src/google.golang.org/grpc" ]; then
    GO111MODULE=off GOPATH="$gocode" GOFLAGS= go build -o bot .
else
    go mod tidy
    go build -o bot .
fi
echo "built ./bot"
