// Which part of the library takes the locks: the classes that the library's lock, RCU and atomic calls
// are attributed to, by the name of the function that makes the call (its immediate caller in
// callgrind's call graph). Pure definitions (no I/O): the callgrind parser, the series and the site's
// Known issues page read this one table.
//
// Chosen from real callgrind output of TLS 1.3 full and resumed handshakes on every version of the
// default matrix (README.md, "Lock calls by class"): every caller seen there has a class of its own or a
// named place in "other". Classes are tried in order and the first whose pattern matches the caller's
// name wins, so every call falls in exactly one class; "other" takes what none matches.
//
// What callgrind cannot see: a lock or atomic that is not a function call. In OpenSSL 3.x (and 1.1.1)
// CRYPTO_UP_REF / CRYPTO_DOWN_REF are inline __atomic operations on compilers that have them
// (include/internal/refcount.h), so most reference counts are not counted at all; the "refcount" class
// holds only the calls an _up_ref or _free function makes into the library's lock and atomic functions.

/** The kinds of call (complaints.ts LOCK_KINDS) counted by class: the library's own entry points. pthread's are reached through them. */
export const CLASSED_KINDS = ['library-locks', 'atomic'] as const;
export type ClassedKind = (typeof CLASSED_KINDS)[number];

export interface LockClassDef {
  id: string;
  /** a few words for labels and the page */
  text: string;
  /** the immediate callers this class takes (after callerName) */
  callers: RegExp;
  /**
   * a helper many parts of the library call (library context data, the hash table, the initialisation
   * check): the functions that call the helper are named beside the count (observed "via")
   */
  helper?: boolean;
}

export const LOCK_CLASS_DEFS = [
  // first: an _up_ref or _free of any object is a reference count, whatever the object
  { id: 'refcount', text: 'reference counts (functions ending in _up_ref or _free)', callers: /(_up_ref|_free)$/ },
  {
    id: 'method-store',
    text: 'method store and fetch (ossl_method_store_*, evp_generic_fetch, ossl_provider_*)',
    callers:
      /^(ossl_method_store_\w+|ossl_method_(un)?lock_store|ossl_method_construct\w*|(inner_)?evp_generic_fetch\w*|evp_generic_do_all\w*|(un)?reserve_\w+_store|ossl_provider_\w+|provider_\w+|OSSL_PROVIDER_\w+)$/,
  },
  {
    id: 'property',
    text: 'property queries (ossl_property_*, ossl_prop_*, property parsing)',
    callers: /^(ossl_property_\w+|ossl_prop_\w+|ossl_parse_\w*(property|query)\w*)$/,
  },
  { id: 'namemap', text: 'name map (ossl_namemap_*)', callers: /^(ossl_namemap_\w+|namemap_\w+)$/ },
  { id: 'lib-ctx', text: 'library context data (ossl_lib_ctx_*)', callers: /^(ossl_lib_ctx_\w+|OSSL_LIB_CTX_\w+)$/, helper: true },
  { id: 'hashtable', text: 'RCU hash table (ossl_ht_*)', callers: /^ossl_ht_\w+$/, helper: true },
  {
    id: 'ex-data',
    text: 'ex_data (CRYPTO_*ex_data*, ossl_crypto_*ex_data*)',
    callers: /^(CRYPTO_\w*ex_(data|new_index)\w*|ossl_crypto_\w*ex_(data|new_index)\w*|get_and_lock)$/,
  },
  {
    id: 'session',
    text: 'TLS session cache and tickets (SSL_*session*, ssl_*sess*)',
    callers: /^((SSL|ssl)_\w*sess\w*|lookup_sess_in_cache|remove_session_lock|ssl_update_cache|tls_\w*ticket\w*)$/,
  },
  { id: 'x509', text: 'certificates and the X509_STORE (X509_*, ossl_x509*)', callers: /^(X509_\w+|x509_\w+|ossl_x509\w*|x509v3_\w+)$/ },
  {
    id: 'decoder',
    text: 'decoders, encoders, OSSL_STORE (OSSL_DECODER*, ossl_decoder_*, ...)',
    callers: /^(OSSL_(DECODER|ENCODER|STORE)\w*|ossl_(decoder|encoder|store)_\w+|(decoder|encoder)_\w+)$/,
  },
  { id: 'pkey', text: 'keys and their keymgmt cache (EVP_PKEY_*, evp_keymgmt_*)', callers: /^(EVP_PKEY_\w+|evp_pkey_\w+|evp_keymgmt_\w+)$/ },
  { id: 'engine', text: 'ENGINE tables (ENGINE_*, engine_*)', callers: /^(ENGINE_\w+|engine_\w+|ossl_engine_\w+|int_engine_\w+)$/ },
  { id: 'objects', text: 'object and OID tables (OBJ_*)', callers: /^(OBJ_\w+|ossl_obj_\w+)$/ },
  { id: 'rng', text: 'RNG (RAND_*, rand_*, ossl_rand_*, DRBG)', callers: /^(RAND_\w+|rand_\w+|ossl_rand_\w+|\w*drbg\w*|\w*DRBG\w*)$/ },
  { id: 'err', text: 'error queue (ERR_*, err_*)', callers: /^(ERR_\w+|err_\w+|ossl_err_\w+)$/ },
  {
    id: 'init',
    text: 'initialisation checks (OPENSSL_init_crypto, OPENSSL_init_ssl)',
    callers: /^(OPENSSL_init_(crypto|ssl)|ossl_init_\w+|OPENSSL_cleanup)$/,
    helper: true,
  },
  { id: 'other', text: 'other callers (named beside the count)', callers: /^/ },
] as const satisfies readonly LockClassDef[];

export type LockClass = (typeof LOCK_CLASS_DEFS)[number]['id'];
export const LOCK_CLASSES: LockClass[] = LOCK_CLASS_DEFS.map((d) => d.id);
export const LOCK_CLASS_TEXT = Object.fromEntries(LOCK_CLASS_DEFS.map((d) => [d.id, d.text])) as Record<LockClass, string>;
export const HELPER_CLASSES: LockClass[] = LOCK_CLASS_DEFS.filter((d) => 'helper' in d && d.helper).map((d) => d.id);

/** A caller's name for classing: GCC's clone suffixes (.constprop.0, .isra.0, .part.0, .cold) removed. */
export const callerName = (name: string): string => name.replace(/\.(constprop|isra|part|cold|lto_priv)(\.\d+)*/g, '');

/** The one class of a caller (callgrind-calls.ts normaliseName first). */
export function classOf(caller: string): LockClass {
  const n = callerName(caller);
  return LOCK_CLASS_DEFS.find((d) => d.callers.test(n))!.id;
}
