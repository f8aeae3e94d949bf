"""The evidence zip's own writer: the layout zipfile writes (so the same bytes when the data is
deflated as one block at zipfile's level), and the same bytes whatever the number of threads."""

from __future__ import annotations

import io
import zipfile
from concurrent.futures import ThreadPoolExecutor

from benchproof.receipts import bundle
from benchproof.receipts.buildtime import BuildTime

WHEN = BuildTime(1740816000, "SOURCE_DATE_EPOCH")
FILES = {"r/a.txt": b"hello " * 1000, "r/b/\u00e9t\u00e9.csv": b"x,y\n1,2\n", "r/empty": b""}


def zipfile_bytes(level: int) -> bytes:
    """What zipfile writes for FILES with the entries benchproof's bundle used to write."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in FILES.items():
            info = zipfile.ZipInfo(name, (2025, 3, 1, 8, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            info.extra = bundle.struct.pack("<HHBL", 0x5455, 5, 1, WHEN.epoch)
            archive.writestr(info, data, compresslevel=level)
    return out.getvalue()


def test_the_writer_lays_a_zip_out_as_zipfile_does():
    assert bytes(bundle.write_zip(FILES, WHEN)) == zipfile_bytes(bundle.LEVEL)
    with zipfile.ZipFile(io.BytesIO(bytes(bundle.write_zip(FILES, WHEN)))) as archive:
        assert {name: archive.read(name) for name in archive.namelist()} == FILES
        assert archive.testzip() is None


def test_blocks_deflated_side_by_side_read_back_whatever_the_threads(monkeypatch):
    big = {"r/big.bin": bytes(range(256)) * (3 * bundle.BLOCK // 256 + 7), **FILES}
    one = bytes(bundle.write_zip(big, WHEN))
    monkeypatch.setattr(bundle, "_pool", lambda: ThreadPoolExecutor(max_workers=1))
    assert bytes(bundle.write_zip(big, WHEN)) == one
    with zipfile.ZipFile(io.BytesIO(one)) as archive:
        assert archive.read("r/big.bin") == big["r/big.bin"] and archive.testzip() is None


def test_content_deflated_as_it_is_written_is_the_same_zip(monkeypatch, tmp_path):
    """records.csv is deflated while it is written (bundle.Deflater), in whatever pieces the
    writer makes: the zip holds the same bytes as one that deflates the finished file, and a
    stored file (written to disk, never held whole) zips as its bytes do."""
    from benchproof.site import Stored

    monkeypatch.setattr(bundle, "BLOCK", 1000)  # many blocks, and pieces across their edges
    for size in (0, 1, 999, 1000, 1001, 3000, 4567):
        data = bytes((i * 7 + size) % 251 for i in range(size))
        for cut in (1, 7, 1000, 1499, 5000):
            deflater = bundle.Deflater()
            stored = Stored(tmp_path / f"{size}-{cut}", (data[i : i + cut] for i in range(0, len(data), cut)), deflater)
            assert deflater.result() == bundle.deflate(data) == bundle.deflate(stored)
            files = {"r/records.csv": stored, **FILES}
            zipped = bytes(bundle.write_zip({"r/records.csv": data, **FILES}, WHEN))
            assert bytes(bundle._joined(bundle.zip_pieces(files, WHEN, {"r/records.csv": deflater}))) == zipped
            assert bytes(bundle.write_zip(files, WHEN)) == zipped


def test_a_file_its_format_compresses_is_stored_not_deflated_again():
    files = {"r/requests/a.parquet": b"PAR1" + bytes(range(256)) * 40 + b"PAR1", **FILES}
    data = bytes(bundle.write_zip(files, WHEN))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:  # what zipfile writes: the Parquet file stored
        for name, content in files.items():
            info = zipfile.ZipInfo(name, (2025, 3, 1, 8, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".parquet") else zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            info.extra = bundle.struct.pack("<HHBL", 0x5455, 5, 1, WHEN.epoch)
            archive.writestr(info, content, compresslevel=bundle.LEVEL)
    assert data == out.getvalue()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.getinfo("r/requests/a.parquet").compress_type == zipfile.ZIP_STORED
        assert archive.getinfo("r/a.txt").compress_type == zipfile.ZIP_DEFLATED
        assert {name: archive.read(name) for name in archive.namelist()} == files and archive.testzip() is None
