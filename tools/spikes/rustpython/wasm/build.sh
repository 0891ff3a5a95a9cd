#!/bin/bash
# usage: ./build.sh [cargo features] ; output in www/pkg (wasm-opt -Oz applied), sizes printed
set -e
cd "$(dirname "$0")"
export CARGO_TARGET_DIR=/work/spike/wasm/target
FEAT=${1:-}
( cd rpspike && RUSTFLAGS="-C link-arg=--export=__stack_pointer" cargo build --release --target wasm32-unknown-unknown --ignore-rust-version ${FEAT:+--features $FEAT} )
W=target/wasm32-unknown-unknown/release/rpspike.wasm
OUTDIR=www/${OUTDIR:-pkg}; mkdir -p $OUTDIR
wasm-bindgen --target web --out-dir $OUTDIR $W
cp $OUTDIR/rpspike_bg.wasm noopt${FEAT:+-$FEAT}.wasm
if [ -z "$NOOPT" ]; then
/work/main/node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue noopt${FEAT:+-$FEAT}.wasm -o $OUTDIR/rpspike_bg.wasm
fi
for f in $W noopt${FEAT:+-$FEAT}.wasm $OUTDIR/rpspike_bg.wasm; do echo "$f raw $(stat -c %s $f) gzip-9 $(gzip -9 -c $f | wc -c)"; done
