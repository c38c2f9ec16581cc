/**
 * The shipping provider as the order service sees it: the part of Shiprocket's external API a shop needs to
 * ship a paid order and follow it. Failures are AppErrors: UnavailableError when the provider cannot be
 * reached or fails (retry later), ValidationError when it refuses the request.
 */
export interface ShippingProvider {
  /**
   * The order's shipment with its AWB: made now, or, when the provider already has an order of this order
   * number (an earlier attempt that died before recording it), that order's shipment. Retrying is safe.
   */
  createShipment(request: ShipmentRequest): Promise<ProviderShipment>;
  /**
   * The provider's order of this order number with its shipment, or null when it has none: how an attempt that
   * died between the provider's answer and the record is found (its AWB is '' when none was assigned yet).
   */
  findShipment(orderNumber: string): Promise<ProviderShipment | null>;
  /**
   * Cancels the shipment's order at the provider (no courier comes for it). Cancelling one already cancelled
   * succeeds; ValidationError when the provider refuses (e.g. the parcel is already with the courier).
   */
  cancelShipment(shipment: { orderNumber: string; awb: string; providerOrderId: string }): Promise<void>;
  /** Where the parcel is now, as the provider's tracking says. */
  track(awb: string): Promise<ProviderTracking>;
}

/** A parcel's tracking as the provider answers it. */
export interface ProviderTracking {
  awb: string;
  /** The provider's status words (e.g. 'OUT FOR DELIVERY'); null: no scan yet. */
  shippingStatus: string | null;
  /** The provider's time of its latest scan; null when it gives none. */
  updatedAt: Date | null;
  trackingUrl: string;
}

/** What a shipment is made from: the placed order (money in paise). */
export interface ShipmentRequest {
  /** The provider's order_id: one order (and shipment) per order number. */
  orderNumber: string;
  placedAt: Date;
  customer: { name: string; email: string; phone: string };
  address: string;
  pincode: string;
  lines: {
    productId: string;
    name: string;
    size: string | null;
    color: string | null;
    quantity: number;
    unitPricePaise: number;
  }[];
  subtotalPaise: number;
  discountPaise: number;
  /** Shipping and delivery charges together. */
  chargesPaise: number;
  totalPaise: number;
}

/** A shipment as the provider answered it. */
export interface ProviderShipment {
  shipmentId: string;
  /** The provider's own id of the order (Shiprocket's order_id), what cancelShipment takes. */
  providerOrderId: string;
  awb: string;
  courier: string;
  trackingUrl: string;
  /** The provider's status words (e.g. 'AWB ASSIGNED'). */
  shippingStatus: string;
}
