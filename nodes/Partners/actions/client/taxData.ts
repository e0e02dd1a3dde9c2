import type { IDataObject } from 'n8n-workflow';
import type { Checker } from '../../../shared/validate';
import { isMissing } from '../../../shared/validate';
import { REGIMEN_FISCAL, USO_CFDI } from '../../domain/catalogs';
import { checkRfc } from '../../../shared/tax/rfc';

const USO_CODES = USO_CFDI.map(([c]) => c);
const REGIMEN_CODES = REGIMEN_FISCAL.map(([c]) => c);

/**
 * Checks client data and tax data (create: `required` fields; update: only what is given) and normalizes
 * the RFC to upper case. Codes outside the CFDI 4.0 catalogs only warn: the catalogs change over time.
 */
export function checkClientData(
	check: Checker,
	client: IDataObject,
	tax: IDataObject,
	required: boolean,
): void {
	check.string('client.name', client.name, { required, max: 255 });
	check.email('client.email', client.email, { required });
	if (required || !isMissing(tax.tax_id)) {
		if (check.required('tax_information.tax_id', tax.tax_id)) {
			const rfc = checkRfc(String(tax.tax_id));
			if (rfc.error) check.fail('tax_information.tax_id', `"${String(tax.tax_id)}" ${rfc.error}`);
			if (rfc.warning) check.warn('tax_information.tax_id', rfc.warning);
			tax.tax_id = rfc.normalized;
		}
	}
	check.string('tax_information.legal_name', tax.legal_name, { required, max: 300 });
	check.matches(
		'tax_information.postal_code',
		tax.postal_code,
		/^\d{5}$/,
		'is not a postal code: it must be 5 digits',
		{ required },
	);
	check.matches(
		'tax_information.invoice_use_key',
		tax.invoice_use_key,
		/^[A-Z]{1,2}\d{2}$/,
		'is not a uso CFDI code (e.g. G03, S01, CP01)',
		{ required },
	);
	if (!isMissing(tax.invoice_use_key) && !USO_CODES.includes(String(tax.invoice_use_key))) {
		check.warn(
			'tax_information.invoice_use_key',
			`${String(tax.invoice_use_key)} is not in the CFDI 4.0 c_UsoCFDI catalog`,
		);
	}
	check.matches(
		'tax_information.tax_regime',
		tax.tax_regime,
		/^\d{3}$/,
		'is not a régimen fiscal code (3 digits, e.g. 601, 612)',
		{ required },
	);
	if (!isMissing(tax.tax_regime) && !REGIMEN_CODES.includes(String(tax.tax_regime))) {
		check.warn(
			'tax_information.tax_regime',
			`${String(tax.tax_regime)} is not in the CFDI 4.0 c_RegimenFiscal catalog`,
		);
	}
	check.email('tax_information.additional_email', tax.additional_email);
}

/** Adds validation warnings to an output object, when there are any. */
export function withWarnings(output: IDataObject, warnings: string[]): IDataObject {
	return warnings.length ? { ...output, warnings } : output;
}
