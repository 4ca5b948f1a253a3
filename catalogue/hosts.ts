// Which host ids are the project's own machines: the self-hosted bench runners (bench.yml) use ids with a
// reserved prefix, which submissions may not use. Imported by the submission check and by the site, whose
// default views open on a project machine. No dependencies: the site's browser scripts may import it.

/** Host ids with these prefixes (in any letter case) belong to the project's self-hosted runners and cannot be submitted. */
export const RESERVED_HOST_PREFIXES = ['obs-'];
export const isReservedHostId = (id: string) => RESERVED_HOST_PREFIXES.some((p) => id.toLowerCase().startsWith(p.toLowerCase()));
