import { HOLDERS, SCHEMA_FAMILIES } from '../../nodes/Sat/domain/schema';
import { readSchema } from './xsd';

/**
 * The table of schema facts the CFDI's JSON follows (nodes/Sat/domain/schema.ts) against the SAT's XSDs
 * themselves (copies in test/sat/xsd/): every element a version lets repeat is in the family's list, every
 * attribute a version types as a number is in its numbers, and nothing else is — but for the departures the
 * table documents, listed here once more.
 */

/** Codes and identifiers a schema types as integers, which stay text (schema.ts says why). */
const CODES = [
	'Banco',
	'CLABE',
	'CuentaBancaria',
	'RiesgoPuesto',
	'TipoDeduccion',
	'TipoIncapacidad',
	'TipoPercepcion',
	'TipoRegimen',
];

/** `family`'s schemas read, with the union of their facts. */
function derive(family) {
	const schemas = family.schemas.map((path) => readSchema(path.split('/').pop()));
	const repeated = new Set();
	const single = new Set();
	const numbers = new Set();
	const texts = new Set();
	const holders = new Set();
	for (const schema of schemas)
		for (const declared of schema.elements.values()) {
			(declared.repeated ? repeated : single).add(declared.local);
			for (const n of declared.numbers) numbers.add(n);
			for (const t of declared.texts) texts.add(t);
			if (declared.holder) holders.add(declared.local);
		}
	return { schemas, repeated, single, numbers, texts, holders };
}

const sorted = (values) => [...values].sort();

describe.each(Object.entries(SCHEMA_FAMILIES))('%s', (name, family) => {
	const facts = derive(family);

	test('its schemas are the versions the table names, qualified elements and unqualified attributes', () => {
		expect(new Set(facts.schemas.map((s) => s.namespace))).toEqual(new Set(family.namespaces));
		// The JSON reads an element's family from its namespace, an attribute's from its element's.
		for (const schema of facts.schemas) {
			expect([schema.file, schema.elementForm, schema.attributeForm]).toEqual([
				schema.file,
				'qualified',
				'unqualified',
			]);
		}
	});

	test('the elements that are lists: those a version lets repeat', () => {
		expect(sorted(family.repeated)).toEqual(sorted(facts.repeated));
	});

	test('the attributes that are numbers: those a version types as numbers, but codes', () => {
		const expected = [...facts.numbers].filter((n) => !CODES.includes(n));
		expect(sorted(family.numbers)).toEqual(sorted(expected));
	});

	test('a local name has one meaning in the family, so the JSON can go by local names', () => {
		// An element that repeats in one place and not in another (CuentaPredial in 3.3 and 4.0, Complemento,
		// CfdiRelacionados) is a list everywhere: its versions share the JSON's paths.
		const both = [...facts.repeated].filter((n) => facts.single.has(n));
		expect(sorted(both)).toEqual(
			name === 'cfdi' ? ['CfdiRelacionados', 'Complemento', 'CuentaPredial'] : [],
		);
		// An attribute that is a number in one place and text in another: only 3.2's TipoCambio (text in
		// cfdv32.xsd, a rate) and Nómina 1.1's integer codes, which are text in 1.2.
		const mixed = [...facts.numbers].filter((n) => facts.texts.has(n));
		expect(sorted(mixed)).toEqual(
			{
				cfdi: ['TipoCambio'],
				nomina: [
					'Banco',
					'RiesgoPuesto',
					'TipoDeduccion',
					'TipoIncapacidad',
					'TipoPercepcion',
					'TipoRegimen',
				],
			}[name] ?? [],
		);
	});

	test('the holders of complements are the CFDI’s xs:any elements', () => {
		expect(sorted(facts.holders)).toEqual(name === 'cfdi' ? sorted(HOLDERS) : []);
	});
});
