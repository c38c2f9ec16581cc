export {
  createShiprocketSandbox,
  httpTrackingTransport,
  ShiprocketSandboxError,
  type SandboxShipment,
  type ShiprocketSandbox,
  type ShiprocketSandboxOptions,
  type TrackingDelivery,
} from './shiprocket-sandbox.ts';
export * from './tracking.ts';
