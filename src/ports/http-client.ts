/** Outbound HTTP (config-free): a fetch-shaped function. Tests link a kit to another kit's handler in-process. */
export type HttpClient = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
