// Courier's API speaks in these currency types; re-exporting them saves every user an import.
@_exported import HTTPTypes
@_exported import protocol OpenAPIRuntime.ClientTransport
@_exported import class OpenAPIRuntime.HTTPBody
