import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { Checker } from '../../../shared/validate';

const PERIODS = ['Mensual', 'Trimestral', 'Semestral', 'Anual', 'SP'] as const;

/**
 * Reads and validates the plan input (create and update share it); throws before anything is sent, with the
 * problems `check` already holds (update's plan ID) beside the input's.
 */
export function readPlanInput(
	this: IExecuteFunctions,
	i: number,
	check: Checker = new Checker(),
): IDataObject {
	const name = this.getNodeParameter('name', i, '') as string;
	const rawVigencies = (this.getNodeParameter('vigencies.vigency', i, []) as IDataObject[]) ?? [];
	const services = { ...(this.getNodeParameter('services', i, {}) as IDataObject) };
	const vigencies: IDataObject[] = rawVigencies.map((v) => ({
		folios: v.folios,
		vigency: v.vigency,
		price: v.price,
	}));
	// Numbers given as text ("120") are sent as the numbers checked.
	check.numbersInto({ vigencies, services });

	check.string('name', name, { required: true, max: 255 });
	if (vigencies.length === 0) check.fail('vigencies', 'add at least one vigency');
	vigencies.forEach((v, n) => {
		check.integer(`vigencies[${n}].folios`, v.folios, { required: true, min: 0 });
		check.oneOf(`vigencies[${n}].vigency`, v.vigency, PERIODS, { required: true });
		check.number(`vigencies[${n}].price`, v.price, { required: true, min: 0, maxDecimals: 2 });
	});
	if (typeof services.pdf_templates === 'string') {
		services.pdf_templates = services.pdf_templates
			.split(',')
			.map((s) => s.trim())
			.filter(Boolean);
	}
	for (const key of ['extra_rfc', 'extra_user'])
		check.integer(`services.${key}`, services[key], { min: 0 });
	check.throwIfFailed(this.getNode(), i);
	return { name, vigencies, services };
}
