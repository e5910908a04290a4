// The words themselves live in the SDK (packages/sdk/src/words.ts), which callers get and which must
// stand alone; the services read them from here, beside their proto mapping (proto-enums.ts).
export * from "@pulsegate/sdk/words";
