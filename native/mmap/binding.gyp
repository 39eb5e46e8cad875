{
  "targets": [
    {
      "target_name": "mmap",
      "sources": ["mmap.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
