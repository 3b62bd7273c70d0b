import type { FastifyInstance } from "fastify";
import { noteParsedJson } from "./nul";

/**
 * The web client sends `Content-Type: application/json` on every call (the API), also on
 * body-less POSTs such as logout. Fastify's JSON parser refuses an empty body; this one
 * treats it as no body and otherwise is Fastify's own (prototype-poisoning checks kept).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
      if (!error) noteParsedJson(text, value);
      done(error, value);
    });
  });
}
