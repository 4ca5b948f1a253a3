// Which releases we measure (OpenSSL, and the other TLS libraries beside it) and where their exact
// source bytes come from. Imported by the runner, the scripts and the site alike, through this file.
export * from './openssl.ts';
export * from './libraries.ts';
export * from './releases.ts';
export * from './validate.ts';
export * from './names.ts';
