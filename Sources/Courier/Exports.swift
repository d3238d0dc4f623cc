// Courier's API speaks in these currency types; re-exporting them saves every user an import.
@_exported import HTTPTypes
@_exported import protocol OpenAPIRuntime.ClientTransport
@_exported import class OpenAPIRuntime.HTTPBody
// The JSON decoder is a module of its own (usable without Courier); Courier's users configure it
// and may call it directly.
@_exported import CourierJSON
