"""Release signing: RSA-3072, PKCS#1 v1.5, SHA-256 over the release manifest SHA256SUMS.

    python -m tools.sign keygen KEY.pem              a new key: KEY.pem (private, mode 0600) and
                                                     KEY.pub.pem (public, what an image carries)
    python -m tools.sign sign RELEASE_DIR --key KEY.pem
                                                     checks the folder against its SHA256SUMS, then
                                                     writes SHA256SUMS.sig (384 bytes, raw)
    python -m tools.sign check RELEASE_DIR --pub PUB.pem
                                                     the signature, every digest, no file missing
                                                     or added; exit status 1 naming the first fault

SHA256SUMS (tools/release.py) is the one blob signed: its first line `# jeton-release version=V
counter=N` carries the release number the device's anti-rollback compares (sha256sum -c skips a
`#` line), then every file of the release as "<sha256>  <path>". A private key never enters the
repository (*.pem is ignored); the build's development key lives in build/keys/.
"""
from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import sys
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SUMS = "SHA256SUMS"
SIG = "SHA256SUMS.sig"
BITS = 3072
EXPONENT = 65537
HEADER = "# jeton-release "


class ReleaseError(Exception):
    """A release that does not check; the message names the file."""


def pub_path(key: Path) -> Path:
    name = key.name[:-4] if key.name.endswith(".pem") else key.name
    return key.with_name(name + ".pub.pem")


def keygen(key: Path) -> Path:
    """A new RSA-3072 key: the private PEM written 0600 from the start (never readable by others,
    not even for an instant), and the public PEM beside it. Refuses to overwrite a key."""
    if key.exists():
        raise ReleaseError(f"{key} exists: refusing to overwrite a key")
    priv = rsa.generate_private_key(public_exponent=EXPONENT, key_size=BITS)
    pem = priv.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())
    key.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    pub = pub_path(key)
    pub.write_bytes(priv.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo))
    return pub


def dev_keygen(key: Path) -> Path:
    """A development key made once, however many processes ask for it at the same time (the sessions
    of a campaign on a fresh clone each build an image): under an exclusive lock beside it, a key
    already there is kept, and a public PEM missing beside it (a process killed between the two
    writes) is written again from the private one. Returns the public PEM's path."""
    key.parent.mkdir(parents=True, exist_ok=True)
    with open(key.parent / ".keygen.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        pub = pub_path(key)
        if not key.is_file():
            return keygen(key)
        if not pub.is_file():
            pub.write_bytes(load_private(key).public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        return pub


def load_private(key: Path) -> rsa.RSAPrivateKey:
    k = serialization.load_pem_private_key(key.read_bytes(), password=None)
    if not isinstance(k, rsa.RSAPrivateKey) or k.key_size != BITS:
        raise ReleaseError(f"{key}: not an RSA-{BITS} private key")
    return k


def load_public(pub: Path) -> rsa.RSAPublicKey:
    data = pub.read_bytes()
    k = (serialization.load_pem_private_key(data, password=None).public_key() if b"PRIVATE" in data
         else serialization.load_pem_public_key(data))
    if not isinstance(k, rsa.RSAPublicKey) or k.key_size != BITS:
        raise ReleaseError(f"{pub}: not an RSA-{BITS} public key")
    return k


def fingerprint(key: rsa.RSAPublicKey) -> str:
    """The key's SHA-256 fingerprint: of its DER SubjectPublicKeyInfo, as `openssl pkey -pubin
    -outform DER | sha256sum` gives it (hex)."""
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()


def sign_bytes(key: rsa.RSAPrivateKey, data: bytes) -> bytes:
    return key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def parse_sums(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """(header fields, {path: sha256 hex}) of a manifest; ReleaseError on any malformed line."""
    header: dict[str, str] = {}
    files: dict[str, str] = {}
    if not text.endswith("\n"):
        raise ReleaseError(f"{SUMS} does not end with a line feed (cut short?)")
    for i, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith(HEADER) and i == 1:
            header = dict(f.split("=", 1) for f in line[len(HEADER):].split() if "=" in f)
            continue
        digest, sep, rel = line.partition("  ")
        if not sep or len(digest) != 64 or not rel or rel in files:
            raise ReleaseError(f"{SUMS} line {i} is malformed: {line!r}")
        files[rel] = digest
    if "version" not in header or not header.get("counter", "").isdigit():
        raise ReleaseError(f"{SUMS} has no '{HEADER}version=V counter=N' first line")
    return header, files


def check_files(folder: Path) -> dict[str, str]:
    """Every file the manifest lists has its digest, and the folder holds no other file."""
    header, files = parse_sums((folder / SUMS).read_text())
    for rel, digest in files.items():
        p = folder / rel
        if not p.is_file():
            raise ReleaseError(f"{rel}: listed in {SUMS}, missing")
        if hashlib.sha256(p.read_bytes()).hexdigest() != digest:
            raise ReleaseError(f"{rel}: SHA-256 differs from {SUMS}")
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and rel not in files and rel not in (SUMS, SIG):
            raise ReleaseError(f"{rel}: not listed in {SUMS}")
    return header


def sign(folder: Path, key: Path) -> Path:
    check_files(folder)  # sign only what is there, whole
    sig = sign_bytes(load_private(key), (folder / SUMS).read_bytes())
    out = folder / SIG
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(sig)
    os.replace(tmp, out)
    return out


def check(folder: Path, pub: Path) -> dict[str, str]:
    """The release's header once its signature and every file check; ReleaseError otherwise."""
    if not (folder / SIG).is_file():
        raise ReleaseError(f"{SIG}: missing (an unsigned release)")
    try:
        load_public(pub).verify((folder / SIG).read_bytes(), (folder / SUMS).read_bytes(),
                                padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise ReleaseError(f"{SIG}: not a signature of {SUMS} by {pub}") from None
    return check_files(folder)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.sign", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("keygen", help="a new RSA-3072 key").add_argument("key", type=Path)
    s = sub.add_parser("sign", help="sign RELEASE_DIR/SHA256SUMS")
    s.add_argument("release", type=Path)
    s.add_argument("--key", type=Path, required=True)
    c = sub.add_parser("check", help="check a signed release")
    c.add_argument("release", type=Path)
    c.add_argument("--pub", type=Path, required=True)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "keygen":
            pub = keygen(args.key)
            print(f"{args.key} (private, 0600: keep it off the repository), {pub} (public)")
        elif args.cmd == "sign":
            print(sign(args.release, args.key))
        else:
            header = check(args.release, args.pub)
            print(f"{args.release}: signature and every file check (version {header['version']},"
                  f" counter {header['counter']}; key {args.pub}, SHA-256 {fingerprint(load_public(args.pub))})")
    except (ReleaseError, OSError, ValueError) as e:
        print(f"sign: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
