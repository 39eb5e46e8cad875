// glibc's malloc serves a block of 128 KiB or more from a mapping of its own, given back to the system when the block
// is freed; but each time it frees such a block it raises that threshold to the block's size (up to 32 MiB), and the
// blocks under it then come from its heap, which keeps the pages of blocks freed there. The buffers an API process's
// searches grow and the bitmaps of the register it pours and lets go (0.85 MB each at 7.7M marks) left 70-140 MiB of
// freed pages in each process's heap. A threshold set by the environment is fixed (glibc then raises neither it nor
// the trim threshold), so those blocks are given back at once: bench/RESULTS.md, "One index per machine: malloc".
// Read by glibc when a process starts: set here for the processes this one starts; an operator's own value stays.
export function fixMallocThreshold(env: NodeJS.ProcessEnv = process.env): void {
  env.MALLOC_MMAP_THRESHOLD_ ??= String(128 * 1024);
}
