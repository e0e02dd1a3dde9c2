/**
 * The border region of a CFDI at 8 % IVA, from where it was issued: the CFDI's `LugarExpedicion` is the issuer's
 * postal code, and a Mexican postal code's first two digits name its state (Correos de México's — SEPOMEX's —
 * numbering, as public postal-code tables transcribe it: 01–16 Ciudad de México, 20 Aguascalientes, 21–22 Baja
 * California…). 8 % IVA exists only under the border-region stimuli: the northern states Baja California, Sonora,
 * Chihuahua, Coahuila, Nuevo León and Tamaulipas, and the southern Campeche, Chiapas, Quintana Roo and Tabasco. The
 * state is what the CFDI tells; the stimuli cover some municipalities of those states, so the bookkeeper's choice
 * per supplier overrides it (choices.ts).
 */

/** The states by the first two digits of their postal codes (inclusive ranges). */
const STATES: ReadonlyArray<[from: number, to: number, state: string]> = [
	[1, 16, 'Ciudad de México'],
	[20, 20, 'Aguascalientes'],
	[21, 22, 'Baja California'],
	[23, 23, 'Baja California Sur'],
	[24, 24, 'Campeche'],
	[25, 27, 'Coahuila'],
	[28, 28, 'Colima'],
	[29, 30, 'Chiapas'],
	[31, 33, 'Chihuahua'],
	[34, 35, 'Durango'],
	[36, 38, 'Guanajuato'],
	[39, 41, 'Guerrero'],
	[42, 43, 'Hidalgo'],
	[44, 49, 'Jalisco'],
	[50, 57, 'Estado de México'],
	[58, 61, 'Michoacán'],
	[62, 62, 'Morelos'],
	[63, 63, 'Nayarit'],
	[64, 67, 'Nuevo León'],
	[68, 71, 'Oaxaca'],
	[72, 75, 'Puebla'],
	[76, 76, 'Querétaro'],
	[77, 77, 'Quintana Roo'],
	[78, 79, 'San Luis Potosí'],
	[80, 82, 'Sinaloa'],
	[83, 85, 'Sonora'],
	[86, 86, 'Tabasco'],
	[87, 89, 'Tamaulipas'],
	[90, 90, 'Tlaxcala'],
	[91, 96, 'Veracruz'],
	[97, 97, 'Yucatán'],
	[98, 99, 'Zacatecas'],
];

const NORTH = ['Baja California', 'Sonora', 'Chihuahua', 'Coahuila', 'Nuevo León', 'Tamaulipas'];
const SOUTH = ['Campeche', 'Chiapas', 'Quintana Roo', 'Tabasco'];

/** The state of a Mexican postal code (5 digits), or undefined. */
function stateOf(postalCode: string | undefined): string | undefined {
	if (postalCode === undefined || !/^\d{5}$/.test(postalCode)) return undefined;
	const prefix = Number(postalCode.slice(0, 2));
	return STATES.find(([from, to]) => prefix >= from && prefix <= to)?.[2];
}

/** The border region of the place a CFDI was issued (its postal code), with its state; region undefined: neither. */
export function regionOf(postalCode: string | undefined): {
	region?: 'north' | 'south';
	state?: string;
} {
	const state = stateOf(postalCode);
	if (state === undefined) return {};
	if (NORTH.includes(state)) return { region: 'north', state };
	return SOUTH.includes(state) ? { region: 'south', state } : { state };
}
