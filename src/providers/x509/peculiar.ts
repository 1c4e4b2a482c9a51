// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first:
// import the library only through this module.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

export { x509 };
