#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/sign-linux-image: a linux-image .deb whose boot/vmlinuz is a PE/COFF image (an EFI
# application built here with gcc and objcopy, as the EFI stub kernel is one) comes out under
# the same name with the image signed: sbverify accepts it with the MOK certificate and refuses
# it with another, the rest of the package and its md5sums are consistent, and mokutil's DER
# certificate is there. A package that is not a linux-image one is refused by name.
# usage: test-sign-linux-image.sh SCRIPTS_DIR
# shellcheck source=script-test-lib.sh
source "$(dirname "$0")/script-test-lib.sh" "$1"

printf 'void start(void) { for (;;); }\n' > "$tmp/tiny.c"
gcc -nostdlib -static -fno-pie -no-pie -o "$tmp/tiny" "$tmp/tiny.c" -Wl,-e,start
pkg="$tmp/pkg"
mkdir -p "$pkg/DEBIAN" "$pkg/boot" "$pkg/lib/modules/6.12.0-test"
objcopy -O efi-app-x86_64 "$tmp/tiny" "$pkg/boot/vmlinuz-6.12.0-test"
chmod 644 "$pkg/boot/vmlinuz-6.12.0-test"
echo "not a module" > "$pkg/lib/modules/6.12.0-test/modules.order"
printf 'Package: linux-image-6.12.0-test\nVersion: 6.12.0-1\nArchitecture: amd64\nMaintainer: t <t@localhost>\nDescription: test\n' \
	> "$pkg/DEBIAN/control"
(cd "$pkg" && md5sum boot/vmlinuz-6.12.0-test lib/modules/6.12.0-test/modules.order > DEBIAN/md5sums)
deb="$tmp/linux-image-6.12.0-test_6.12.0-1_amd64.deb"
dpkg-deb -b --root-owner-group "$pkg" "$deb" >/dev/null

out="$("$scripts/sign-linux-image" --out "$tmp/signed" "$deb" 2>"$tmp/log")" || fail "sign-linux-image: $(cat "$tmp/log")"
signed="$out/$(basename "$deb")"
[[ -f $signed ]] || fail "no $signed"
for f in MOK.key MOK.crt MOK.der; do [[ -f $MEMCGD_CACHE/mok/$f ]] || fail "no $f"; done
openssl x509 -inform DER -in "$MEMCGD_CACHE/mok/MOK.der" -noout -ext extendedKeyUsage | grep -q 'Code Signing' ||
	fail "MOK.der is not a code signing certificate"
dpkg-deb -x "$signed" "$tmp/x"
sbverify --cert "$MEMCGD_CACHE/mok/MOK.crt" "$tmp/x/boot/vmlinuz-6.12.0-test" >/dev/null 2>&1 ||
	fail "the signed image does not verify with the MOK"
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=other/" -keyout "$tmp/o.key" -out "$tmp/o.crt" 2>/dev/null
if sbverify --cert "$tmp/o.crt" "$tmp/x/boot/vmlinuz-6.12.0-test" >/dev/null 2>&1; then
	fail "the signed image verifies with a certificate that did not sign it"
fi
if sbverify --cert "$MEMCGD_CACHE/mok/MOK.crt" "$pkg/boot/vmlinuz-6.12.0-test" >/dev/null 2>&1; then
	fail "sbverify accepts the unsigned image: this test proves nothing"
fi
[[ $(dpkg-deb --field "$signed" Version) == 6.12.0-1 ]] || fail "the version changed"
(cd "$tmp/x" && dpkg-deb -e "$signed" "$tmp/ctl" && md5sum -c --quiet "$tmp/ctl/md5sums") ||
	fail "md5sums do not match the signed package's files"
[[ $(stat -c %a "$tmp/x/boot/vmlinuz-6.12.0-test") == 644 ]] || fail "the image's mode changed"

# a second package signs with the same key, not a new one
before="$(md5sum < "$MEMCGD_CACHE/mok/MOK.crt")"
"$scripts/sign-linux-image" --out "$tmp/signed2" "$deb" >/dev/null 2>&1 || fail "second run failed"
[[ $(md5sum < "$MEMCGD_CACHE/mok/MOK.crt") == "$before" ]] || fail "a second run made a new key"

# not a kernel package
printf 'Package: memcgd\nVersion: 1\nArchitecture: all\nMaintainer: t <t@localhost>\nDescription: t\n' > "$pkg/DEBIAN/control"
rm "$pkg/DEBIAN/md5sums"
dpkg-deb -b --root-owner-group "$pkg" "$tmp/memcgd_1_all.deb" >/dev/null
if out="$("$scripts/sign-linux-image" "$tmp/memcgd_1_all.deb" 2>&1)"; then fail "signed a package that is not linux-image"; fi
grep -q "'$tmp/memcgd_1_all.deb' is memcgd, not a linux-image package" <<<"$out" || fail "unclear refusal: $out"
echo "ok: sign-linux-image: signed, verified with the MOK only, same package otherwise"
