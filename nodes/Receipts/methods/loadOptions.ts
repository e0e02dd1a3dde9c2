import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import {
	catalogEntry,
	DOCUMENT_TYPE_CATALOG,
	ID_TYPE_CATALOG,
	SALES_TAX_RATE_CATALOG,
	WITHHOLDING_RATE_CATALOG,
	type CatalogEntry,
} from '../domain/catalogs';
import { notChosen } from '../../shared/options';
import { path, type ApiPath } from '../../shared/path';
import { receiptsClient } from '../transport';

/**
 * Dropdowns of the code fields, from the service's catalogs (`GET /catalog/...`, each `{count, results[]}`:
 * the service's public documentation, Catálogo; the spec does not show them). When a catalog cannot be read
 * (no credential yet, the service down, an unexpected answer), the dropdown offers the built-in list of
 * domain/catalogs.ts instead, each entry saying so. An expression is accepted in every such field.
 */

const OFFLINE = 'From the built-in list: the catalog of the receipts service could not be read';

async function catalog(
	this: ILoadOptionsFunctions,
	address: ApiPath,
	fallback: CatalogEntry[],
): Promise<INodePropertyOptions[]> {
	let entries: CatalogEntry[] = [];
	try {
		const answer = await receiptsClient(this, { timeoutMs: 15000 }).read(address);
		if (Array.isArray(answer.results))
			entries = answer.results.map(catalogEntry).filter((e): e is CatalogEntry => e !== undefined);
	} catch {
		// the built-in list below
	}
	if (entries.length) return entries.map((e) => ({ name: `${e.name} (${e.code})`, value: e.code }));
	return fallback.map((e) => ({
		name: `${e.name} (${e.code})`,
		value: e.code,
		description: OFFLINE,
	}));
}

/** The tax type chosen next to the field being filled (`codigo`, or `tax_codigo` in Fields-mode items). */
function siblingTaxType(this: ILoadOptionsFunctions, fallback: string): string {
	const raw =
		this.getCurrentNodeParameter('&codigo') ?? this.getCurrentNodeParameter('&tax_codigo');
	const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	return /^\d{1,4}$/.test(value) ? value : fallback;
}

export async function getIdTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await catalog.call(this, path`/catalog/id-types`, ID_TYPE_CATALOG);
}

/**
 * The ID Type of the form's version 2, whose empty default means "told from the identification": a real choice
 * of its own, first (common/fields/parties.ts, idTypeField).
 */
export async function getIdTypesOrInferred(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		{
			name: 'From the Identification',
			value: '',
			description:
				'13 digits ending in 001: RUC (04); 10 digits: cédula (05); 9999999999999: final consumer (07); a warning says which was used',
		},
		...(await getIdTypes.call(this)),
	];
}

export async function getDocumentTypes(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await catalog.call(this, path`/catalog/document-types`, DOCUMENT_TYPE_CATALOG);
}

/** A document type that may be left out (a waybill recipient's supporting document): "None" is its default. */
export async function getDocumentTypesOrNone(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return [
		{ name: 'None', value: '', description: 'No supporting document' },
		...(await getDocumentTypes.call(this)),
	];
}

export async function getSalesTaxRates(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const tipo = siblingTaxType.call(this, '2');
	return await catalog.call(
		this,
		path`/catalog/sales-tax-rates/${tipo}`,
		SALES_TAX_RATE_CATALOG[tipo] ?? [],
	);
}

export async function getWithholdingRates(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const tipo = siblingTaxType.call(this, '1');
	// Required, with no code right for most retentions: the default is "not chosen yet" (shared/options.ts).
	return [
		notChosen('the retention code'),
		...(await catalog.call(
			this,
			path`/catalog/withholdings-tax-rates/${tipo}`,
			WITHHOLDING_RATE_CATALOG[tipo] ?? [],
		)),
	];
}
