export * from "./constants";
export * from "./errors";
export * from "./health";
export * from "./models";
export * from "./plans";
export * from "./realtime";
export * from "./redact";
export * from "./routes";
