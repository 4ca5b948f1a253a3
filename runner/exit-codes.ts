// Exit codes of our C programs (runner/c-common/exit_codes.h; exit-codes.test.ts checks they agree).
export const EXIT = { ok: 0, failed: 1, unsupported: 2, usage: 64 } as const;
