"""Two small oracle packs for oracle-carry.test: program p the same in both; program q's block2 variant
changed in the second; program r's block2 variant changed only in the check header -check embeds; the check
runtime the same.  usage: make-packs.py DIR"""
import io
import os
import sys
import tarfile


def pack(path, files):
    os.makedirs(path, exist_ok=True)
    with tarfile.open(os.path.join(path, "pack.tar.xz"), "w:xz") as t:
        for name, text in sorted(files.items()):
            data = text.encode()
            info = tarfile.TarInfo("pack/" + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


base = {"progs/p/root/a.cu": "int a;\n", "progs/p/block2/a.cu": "int a2;\n", "progs/q/root/b.cu": "int b;\n",
        "progs/q/block2/b.cu": "int b2;\n", "runtime/src/check.cpp": "// runtime\n",
        "progs/r/root/c.cu": "int c;\n",
        "progs/r/block2/c.cu": "#ifndef TFUSE_CHECK_H\n#define TFUSE_CHECK_H\nint v1;\n#endif /* TFUSE_CHECK_H */\nint c2;\n"}
pack(os.path.join(sys.argv[1], "old"), base)
pack(os.path.join(sys.argv[1], "new"), dict(base, **{
    "progs/q/block2/b.cu": "int b2_changed;\n",
    "progs/r/block2/c.cu": "#ifndef TFUSE_CHECK_H\n#define TFUSE_CHECK_H\nint v2;\n#endif /* TFUSE_CHECK_H */\nint c2;\n"}))
