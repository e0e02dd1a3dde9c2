import { fakeBase64 } from '../simulator/cfdi';

/**
 * CFDIs shaped as real generators write them — our own data in the structures seen in CFDIs published by ERPs,
 * PACs and libraries (e.g. the sample CFDIs of eclipxe13/CfdiUtils' tests: a CFDI 3.2 with lower-case attributes,
 * `Moneda`/`TipoCambio` capitalized and a stamp 1.0; a 3.3 whose attributes are in alphabetical order with the
 * local-taxes complement; a 4.0 with 6-decimal amounts and `xmlns:xsi` declared again on the stamp; Pagos 1.0
 * with the prefix declared on `Pagos` or on the root and a single document without `ImpPagado`), and the
 * complements' structures as their XSDs define them (Carta Porte 2.0 and 3.1, Nómina 1.1 and 1.2, Pagos 2.0).
 * Each says what a reader must find in it. Used by the engine tests (test/sat/real-files.test.js) and the
 * real-n8n suite (test/e2e/sat.test.mjs).
 */

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/** A stamp 1.1 (as PACs write it: its own xmlns and schemaLocation). */
const tfd11 = (uuid, fecha = '2026-10-15T10:31:02', rfcProv = 'SAT970701NN3') =>
	`<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/TimbreFiscalDigital http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd" Version="1.1" UUID="${uuid}" FechaTimbrado="${fecha}" RfcProvCertif="${rfcProv}" SelloCFD="${fakeBase64(`cfd:${uuid}`, 344)}" NoCertificadoSAT="00001000000705250068" SelloSAT="${fakeBase64(`sat:${uuid}`, 344)}"/>`;

const sello = (seed) => fakeBase64(`sello:${seed}`, 344);

/**
 * @typedef {{ uuid: string | null, version: string, emisor: string, receptor: string, total: number }} Identity
 * @typedef {{ name: string, xml: string, expect: Identity }} RealCfdi
 */

/** @type {RealCfdi[]} */
export const REAL_CFDIS = [
	{
		name: 'CFDI 4.0, amounts with 6 decimals, one IVA line per concepto',
		expect: {
			uuid: 'C2832671-DA6D-11EF-A83D-00155D012007',
			version: '4.0',
			emisor: 'IIA040805DZ4',
			receptor: 'CACX7605101P8',
			total: 1000,
		},
		xml: `<?xml version="1.0"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" ${XSI} Version="4.0" Serie="O" Folio="52370001" Fecha="2026-01-24T10:10:41" Sello="${sello(1)}" FormaPago="04" MetodoPago="PUE" NoCertificado="00001000000510000001" Certificado="${fakeBase64('cer1', 200)}" SubTotal="862.07" Moneda="MXN" TipoCambio="1" Total="1000.00" TipoDeComprobante="I" LugarExpedicion="11529" Exportacion="01" xsi:schemaLocation=" http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd">
  <cfdi:Emisor Rfc="IIA040805DZ4" Nombre="INDISTRIA ILUMINADORA DE ALMACENES" RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="CACX7605101P8" Nombre="XOCHILT CASAS CHAVEZ" DomicilioFiscalReceptor="36257" RegimenFiscalReceptor="612" UsoCFDI="G03"/>
  <cfdi:Conceptos>
    <cfdi:Concepto ClaveProdServ="80141628" Cantidad="1.000000" ClaveUnidad="E48" Unidad="NO APLICA" Descripcion="COMISION RECARGA" ValorUnitario="8.620690" Importe="8.620690" ObjetoImp="02">
      <cfdi:Impuestos>
        <cfdi:Traslados>
          <cfdi:Traslado Base="8.620690" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="1.379310"/>
        </cfdi:Traslados>
      </cfdi:Impuestos>
    </cfdi:Concepto>
    <cfdi:Concepto ClaveProdServ="95111615" Cantidad="1.000000" ClaveUnidad="E54" Unidad="NO APLICA" Descripcion="RECARGA" ValorUnitario="853.448276" Importe="853.448276" ObjetoImp="02">
      <cfdi:Impuestos>
        <cfdi:Traslados>
          <cfdi:Traslado Base="853.448276" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="136.551724"/>
        </cfdi:Traslados>
      </cfdi:Impuestos>
    </cfdi:Concepto>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="137.93">
    <cfdi:Traslados>
      <cfdi:Traslado Base="862.07" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="137.93"/>
    </cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    ${tfd11('C2832671-DA6D-11EF-A83D-00155D012007', '2026-01-24T10:10:42', 'TBN040609RKA')}
  </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 with an exempt line, a 0 % line, a 16 % line withholding ISR and IVA, IEPS by quota, a line not subject to tax',
		expect: {
			uuid: '5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C01',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'URE180429TM6',
			total: 2120.13,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd" Version="4.0" Serie="B" Folio="2001" Fecha="2026-10-02T09:00:00" Sello="${sello(2)}" FormaPago="03" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer2', 200)}" SubTotal="2100.00" Moneda="MXN" Total="2120.13" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" LugarExpedicion="42501">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="URE180429TM6" Nombre="UNIVERSIDAD ROBOTICA ESPAÑOLA" DomicilioFiscalReceptor="86991" RegimenFiscalReceptor="601" UsoCFDI="G03"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="55101500" Cantidad="2" ClaveUnidad="H87" Unidad="Pieza" Descripcion="Libro de texto" ValorUnitario="250.00" Importe="500.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="500.00" Impuesto="002" TipoFactor="Exento"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
		</cfdi:Concepto>
		<cfdi:Concepto ClaveProdServ="50221200" Cantidad="15" ClaveUnidad="KGM" Unidad="Kilogramo" Descripcion="Tortilla de maíz" ValorUnitario="20.00" Importe="300.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="300.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.000000" Importe="0.00"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
		</cfdi:Concepto>
		<cfdi:Concepto ClaveProdServ="80111600" Cantidad="1" ClaveUnidad="E48" Unidad="Servicio" Descripcion="Honorarios de consultoría" ValorUnitario="1000.00" Importe="1000.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/>
				</cfdi:Traslados>
				<cfdi:Retenciones>
					<cfdi:Retencion Base="1000.00" Impuesto="001" TipoFactor="Tasa" TasaOCuota="0.100000" Importe="100.00"/>
					<cfdi:Retencion Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.106667" Importe="106.67"/>
				</cfdi:Retenciones>
			</cfdi:Impuestos>
		</cfdi:Concepto>
		<cfdi:Concepto ClaveProdServ="50202200" Cantidad="10" ClaveUnidad="LTR" Unidad="Litro" Descripcion="Bebida saborizada" ValorUnitario="20.00" Importe="200.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="10" Impuesto="003" TipoFactor="Cuota" TasaOCuota="3.000000" Importe="30.00"/>
					<cfdi:Traslado Base="230.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="36.80"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
		</cfdi:Concepto>
		<cfdi:Concepto ClaveProdServ="84101600" Cantidad="1" ClaveUnidad="ACT" Descripcion="Donativo" ValorUnitario="100.00" Importe="100.00" ObjetoImp="01"/>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosRetenidos="206.67" TotalImpuestosTrasladados="226.80">
		<cfdi:Retenciones>
			<cfdi:Retencion Impuesto="001" Importe="100.00"/>
			<cfdi:Retencion Impuesto="002" Importe="106.67"/>
		</cfdi:Retenciones>
		<cfdi:Traslados>
			<cfdi:Traslado Base="1230.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="196.80"/>
			<cfdi:Traslado Base="300.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.000000" Importe="0.00"/>
			<cfdi:Traslado Base="500.00" Impuesto="002" TipoFactor="Exento"/>
			<cfdi:Traslado Base="10" Impuesto="003" TipoFactor="Cuota" TasaOCuota="3.000000" Importe="30.00"/>
		</cfdi:Traslados>
	</cfdi:Impuestos>
	<cfdi:Complemento>
		${tfd11('5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C01')}
	</cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0, one concepto split between two IVA rates (16 % and the border 8 %)',
		expect: {
			uuid: '5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C02',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'XIA190128J61',
			total: 1128,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Folio="77" Fecha="2026-10-03T12:00:00" Sello="${sello(3)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer2', 200)}" SubTotal="1000.00" Moneda="MXN" Total="1128.00" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" FormaPago="01" LugarExpedicion="22000">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="XIA190128J61" Nombre="XENON INDUSTRIAL ARTICLES" DomicilioFiscalReceptor="76343" RegimenFiscalReceptor="601" UsoCFDI="G01"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="43211503" Cantidad="1" ClaveUnidad="H87" Descripcion="Equipo de cómputo" ValorUnitario="1000.00" Importe="1000.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="600.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="96.00"/>
					<cfdi:Traslado Base="400.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.080000" Importe="32.00"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
		</cfdi:Concepto>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosTrasladados="128.00">
		<cfdi:Traslados>
			<cfdi:Traslado Base="600.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="96.00"/>
			<cfdi:Traslado Base="400.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.080000" Importe="32.00"/>
		</cfdi:Traslados>
	</cfdi:Impuestos>
	<cfdi:Complemento>${tfd11('5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C02')}</cfdi:Complemento>
</cfdi:Comprobante>`,
	},
	{
		name: 'CFDI 3.3, attributes in alphabetical order, local taxes (implocal) before the stamp',
		expect: {
			uuid: 'CEE4BE01-ADFA-4DEB-8421-ADD60F0B0001',
			version: '3.3',
			emisor: 'KIJ0906199R1',
			receptor: 'MOFY900516NL1',
			total: 1777.5,
		},
		xml: `<?xml version="1.0" encoding="utf-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" ${XSI} Certificado="${fakeBase64('cer3', 200)}" CondicionesDePago="CONTADO" Fecha="2019-01-12T08:15:01" Folio="11541" FormaPago="04" LugarExpedicion="76802" MetodoPago="PUE" Moneda="MXN" NoCertificado="00001000000401220451" Sello="${sello(4)}" Serie="H" SubTotal="1500.00" TipoDeComprobante="I" Total="1777.50" Version="3.3" xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv33.xsd http://www.sat.gob.mx/implocal http://www.sat.gob.mx/sitio_internet/cfd/implocal/implocal.xsd">
  <cfdi:Emisor Nombre="HOTEL KIJ SA DE CV" RegimenFiscal="601" Rfc="KIJ0906199R1"/>
  <cfdi:Receptor Nombre="YADIRA MORALES FIGUEROA" Rfc="MOFY900516NL1" UsoCFDI="G03"/>
  <cfdi:Conceptos>
    <cfdi:Concepto Cantidad="2.00" ClaveProdServ="90111501" ClaveUnidad="E48" Descripcion="Hospedaje" Importe="1200.00" Unidad="UNIDAD DE SERVICIO" ValorUnitario="600.00">
      <cfdi:Impuestos>
        <cfdi:Traslados>
          <cfdi:Traslado Base="1200.00" Importe="192.00" Impuesto="002" TasaOCuota="0.160000" TipoFactor="Tasa"/>
        </cfdi:Traslados>
      </cfdi:Impuestos>
    </cfdi:Concepto>
    <cfdi:Concepto Cantidad="1.00" ClaveProdServ="90101501" ClaveUnidad="E48" Descripcion="Restaurante" Importe="300.00" Unidad="UNIDAD DE SERVICIO" ValorUnitario="300.00">
      <cfdi:Impuestos>
        <cfdi:Traslados>
          <cfdi:Traslado Base="300.00" Importe="48.00" Impuesto="002" TasaOCuota="0.160000" TipoFactor="Tasa"/>
        </cfdi:Traslados>
      </cfdi:Impuestos>
    </cfdi:Concepto>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="240.00">
    <cfdi:Traslados>
      <cfdi:Traslado Importe="240.00" Impuesto="002" TasaOCuota="0.160000" TipoFactor="Tasa"/>
    </cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    <implocal:ImpuestosLocales xmlns:implocal="http://www.sat.gob.mx/implocal" TotaldeRetenciones="0.00" TotaldeTraslados="37.50" version="1.0">
      <implocal:TrasladosLocales ImpLocTrasladado="ISH" Importe="37.50" TasadeTraslado="2.50"/>
    </implocal:ImpuestosLocales>
    ${tfd11('CEE4BE01-ADFA-4DEB-8421-ADD60F0B0001', '2019-01-12T08:17:54', 'DCD090706E42')}
  </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 3.2: lower-case attributes, Moneda and TipoCambio capitalized, addresses, taxes only for the whole CFDI, stamp 1.0',
		expect: {
			uuid: '80824F3B-323E-407B-8F8E-40D83FE20001',
			version: '3.2',
			emisor: 'CACX7605101P8',
			receptor: 'XAXX010101000',
			total: 580,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv32.xsd" version="3.2" serie="S" folio="68189" fecha="2017-03-21T08:17:31" sello="${sello(5)}" formaDePago="Pago en una sola exhibicion" noCertificado="00001000000403543235" certificado="${fakeBase64('cer5', 200)}" condicionesDePago="Credito" subTotal="500.00" descuento="0.00" total="580.00" metodoDePago="04" tipoDeComprobante="ingreso" Moneda="MXN" TipoCambio="1.00" LugarExpedicion="TOLUCA, ESTADO DE MEXICO" NumCtaPago="0291">
  <cfdi:Emisor rfc="CACX7605101P8" nombre="XOCHILT CASAS CHAVEZ">
    <cfdi:DomicilioFiscal calle="BLVD. TOLUCA" noExterior="126" colonia="CENTRO" municipio="TOLUCA" estado="ESTADO DE MEXICO" pais="Mexico" codigoPostal="50000"/>
    <cfdi:ExpedidoEn calle="BLVD. TOLUCA" noExterior="126" colonia="CENTRO" municipio="TOLUCA" estado="ESTADO DE MEXICO" pais="Mexico" codigoPostal="50000"/>
    <cfdi:RegimenFiscal Regimen="Regimen de Incorporacion Fiscal"/>
  </cfdi:Emisor>
  <cfdi:Receptor rfc="XAXX010101000" nombre="PUBLICO EN GENERAL">
    <cfdi:Domicilio calle="PRIVADA LOS CISNES" noExterior="19" colonia="LA ASUNCION" municipio="METEPEC" estado="MEXICO" pais="Mexico" codigoPostal="52172"/>
  </cfdi:Receptor>
  <cfdi:Conceptos>
    <cfdi:Concepto cantidad="5" unidad="PIEZA" noIdentificacion="ACE-1" descripcion="ACEITE" valorUnitario="60.00" importe="300.00">
</cfdi:Concepto>
    <cfdi:Concepto cantidad="1" unidad="PIEZA" noIdentificacion="FIL-2" descripcion="FILTRO DE ACEITE" valorUnitario="150.00" importe="150.00">
</cfdi:Concepto>
    <cfdi:Concepto cantidad="1" unidad="SERVICIO" noIdentificacion="MO1" descripcion="MANO DE OBRA" valorUnitario="50.00" importe="50.00"/>
  </cfdi:Conceptos>
  <cfdi:Impuestos totalImpuestosTrasladados="80.00">
    <cfdi:Traslados>
      <cfdi:Traslado impuesto="IVA" tasa="16" importe="80.00"/>
    </cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    <tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" xsi:schemaLocation="http://www.sat.gob.mx/TimbreFiscalDigital http://www.sat.gob.mx/TimbreFiscalDigital/TimbreFiscalDigital.xsd" version="1.0" UUID="80824F3B-323E-407B-8F8E-40D83FE20001" FechaTimbrado="2017-03-21T08:18:08" selloCFD="${sello(5)}" noCertificadoSAT="00001000000404477432" selloSAT="${fakeBase64('sat5', 172)}"/>
  </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 3.2 payroll with Nómina 1.1 (two deductions, integer codes with leading zeros)',
		expect: {
			uuid: '80824F3B-323E-407B-8F8E-40D83FE20002',
			version: '3.2',
			emisor: 'EKU9003173C9',
			receptor: 'FUNK671228PH6',
			total: 4500,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" xmlns:nomina="http://www.sat.gob.mx/nomina" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv32.xsd http://www.sat.gob.mx/nomina http://www.sat.gob.mx/sitio_internet/cfd/nomina/nomina11.xsd" version="3.2" fecha="2016-06-15T18:00:00" sello="${sello(6)}" formaDePago="En una sola exhibición" noCertificado="00001000000300000001" certificado="${fakeBase64('cer6', 200)}" subTotal="5000.00" descuento="100.00" motivoDescuento="Deducciones nómina" total="4500.00" metodoDePago="NA" tipoDeComprobante="egreso" Moneda="MXN" LugarExpedicion="GUADALAJARA, JALISCO">
  <cfdi:Emisor rfc="EKU9003173C9" nombre="ESCUELA KEMPER URGATE">
    <cfdi:RegimenFiscal Regimen="General de Ley Personas Morales"/>
  </cfdi:Emisor>
  <cfdi:Receptor rfc="FUNK671228PH6" nombre="KARLA FUENTE NOLASCO"/>
  <cfdi:Conceptos>
    <cfdi:Concepto cantidad="1" unidad="Servicio" descripcion="Pago de nómina" valorUnitario="5000.00" importe="5000.00"/>
  </cfdi:Conceptos>
  <cfdi:Impuestos totalImpuestosRetenidos="400.00">
    <cfdi:Retenciones>
      <cfdi:Retencion impuesto="ISR" importe="400.00"/>
    </cfdi:Retenciones>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    <nomina:Nomina Version="1.1" RegistroPatronal="B5510768108" NumEmpleado="120" CURP="FUNK671228MJCNLR00" TipoRegimen="2" NumSeguridadSocial="04078873454" FechaPago="2016-06-15" FechaInicialPago="2016-06-01" FechaFinalPago="2016-06-15" NumDiasPagados="15" Departamento="Sistemas" CLABE="012180001234567897" Banco="012" FechaInicioRelLaboral="2015-06-01" Antiguedad="54" Puesto="Programadora" TipoContrato="Base" TipoJornada="Diurna" PeriodicidadPago="quincenal" SalarioBaseCotApor="333.33" RiesgoPuesto="1" SalarioDiarioIntegrado="350.50">
      <nomina:Percepciones TotalGravado="5000.00" TotalExento="0.00">
        <nomina:Percepcion TipoPercepcion="001" Clave="P001" Concepto="Sueldo" ImporteGravado="5000.00" ImporteExento="0.00"/>
      </nomina:Percepciones>
      <nomina:Deducciones TotalGravado="500.00" TotalExento="0.00">
        <nomina:Deduccion TipoDeduccion="002" Clave="D002" Concepto="ISR" ImporteGravado="400.00" ImporteExento="0.00"/>
        <nomina:Deduccion TipoDeduccion="001" Clave="D001" Concepto="IMSS" ImporteGravado="100.00" ImporteExento="0.00"/>
      </nomina:Deducciones>
    </nomina:Nomina>
    <tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" version="1.0" UUID="80824F3B-323E-407B-8F8E-40D83FE20002" FechaTimbrado="2016-06-15T18:01:00" selloCFD="${sello(6)}" noCertificadoSAT="00001000000404477432" selloSAT="${fakeBase64('sat6', 172)}"/>
  </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 payroll with Nómina 1.2 (one perception, an account number with a leading zero, subsidy)',
		expect: {
			uuid: '4E3D2C1B-0A9F-4E8D-8C7B-6A5F4E3D0003',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'FUNK671228PH6',
			total: 4500.01,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:nomina12="http://www.sat.gob.mx/nomina12" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd http://www.sat.gob.mx/nomina12 http://www.sat.gob.mx/sitio_internet/cfd/nomina/nomina12.xsd" Version="4.0" Serie="N" Folio="1203" Fecha="2026-10-15T18:00:00" Sello="${sello(7)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer7', 200)}" SubTotal="5000.01" Descuento="500.00" Moneda="MXN" Total="4500.01" TipoDeComprobante="N" Exportacion="01" MetodoPago="PUE" LugarExpedicion="44100">
  <cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="FUNK671228PH6" Nombre="KARLA FUENTE NOLASCO" DomicilioFiscalReceptor="01160" RegimenFiscalReceptor="605" UsoCFDI="CN01"/>
  <cfdi:Conceptos>
    <cfdi:Concepto ClaveProdServ="84111505" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago de nómina" ValorUnitario="5000.01" Importe="5000.01" Descuento="500.00" ObjetoImp="01"/>
  </cfdi:Conceptos>
  <cfdi:Complemento>
    <nomina12:Nomina Version="1.2" TipoNomina="O" FechaPago="2026-10-15" FechaInicialPago="2026-10-01" FechaFinalPago="2026-10-15" NumDiasPagados="15.000" TotalPercepciones="5000.00" TotalDeducciones="500.00" TotalOtrosPagos="0.01">
      <nomina12:Emisor RegistroPatronal="B5510768108"/>
      <nomina12:Receptor Curp="FUNK671228MJCNLR00" NumSeguridadSocial="04078873454" FechaInicioRelLaboral="2015-06-01" Antigüedad="P593W" TipoContrato="01" TipoJornada="01" TipoRegimen="02" NumEmpleado="120" Departamento="Sistemas" Puesto="Programadora" RiesgoPuesto="1" PeriodicidadPago="04" Banco="002" CuentaBancaria="0123456789" SalarioBaseCotApor="333.33" SalarioDiarioIntegrado="350.50" ClaveEntFed="JAL"/>
      <nomina12:Percepciones TotalSueldos="5000.00" TotalGravado="5000.00" TotalExento="0.00">
        <nomina12:Percepcion TipoPercepcion="001" Clave="P001" Concepto="Sueldo" ImporteGravado="5000.00" ImporteExento="0.00"/>
      </nomina12:Percepciones>
      <nomina12:Deducciones TotalOtrasDeducciones="100.00" TotalImpuestosRetenidos="400.00">
        <nomina12:Deduccion TipoDeduccion="002" Clave="D002" Concepto="ISR" Importe="400.00"/>
        <nomina12:Deduccion TipoDeduccion="001" Clave="D001" Concepto="IMSS" Importe="100.00"/>
      </nomina12:Deducciones>
      <nomina12:OtrosPagos>
        <nomina12:OtroPago TipoOtroPago="002" Clave="OP002" Concepto="Subsidio para el empleo" Importe="0.01">
          <nomina12:SubsidioAlEmpleo SubsidioCausado="0.00"/>
        </nomina12:OtroPago>
      </nomina12:OtrosPagos>
    </nomina12:Nomina>
    ${tfd11('4E3D2C1B-0A9F-4E8D-8C7B-6A5F4E3D0003')}
  </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 3.3 payment (Pagos 1.0), prefix declared on Pagos, one document without ImpPagado',
		expect: {
			uuid: 'A6F92B41-7FE7-49A5-AA9F-D9AF01620004',
			version: '3.3',
			emisor: 'EKU9003173C9',
			receptor: 'URE180429TM6',
			total: 0,
		},
		xml: `<?xml version="1.0" encoding="utf-8"?>
<cfdi:Comprobante xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:cfdi="http://www.sat.gob.mx/cfd/3"
    xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv33.xsd http://www.sat.gob.mx/Pagos http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos10.xsd"
    Certificado="${fakeBase64('cer8', 200)}"
    LugarExpedicion="97120" TipoDeComprobante="P" Total="0" Moneda="XXX" SubTotal="0"
    NoCertificado="30001000000300023701" Sello="${sello(8)}" Fecha="2019-08-23T10:23:07" Version="3.3">
    <cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
    <cfdi:Receptor Rfc="URE180429TM6" Nombre="UNIVERSIDAD ROBOTICA ESPAÑOLA" UsoCFDI="P01"/>
    <cfdi:Conceptos>
        <cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0"/>
    </cfdi:Conceptos>
    <cfdi:Complemento>
        <pago10:Pagos xmlns:pago10="http://www.sat.gob.mx/Pagos" Version="1.0">
            <pago10:Pago FechaPago="2019-08-22T14:37:50" FormaDePagoP="03" MonedaP="MXN" Monto="1500.00">
                <pago10:DoctoRelacionado IdDocumento="A6F92B41-7FE7-49A5-AA9F-D9AF01625C8D" MonedaDR="MXN"
                    MetodoDePagoDR="PPD" NumParcialidad="1" ImpSaldoAnt="3000.00" ImpSaldoInsoluto="1500.00"/>
            </pago10:Pago>
        </pago10:Pagos>
        ${tfd11('A6F92B41-7FE7-49A5-AA9F-D9AF01620004', '2019-08-23T10:25:00')}
    </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 3.3 payment (Pagos 1.0), prefix declared on the root, a document in dollars, the payment’s taxes',
		expect: {
			uuid: 'D72829D8-ADCD-4457-935F-B7168A480005',
			version: '3.3',
			emisor: 'EKU9003173C9',
			receptor: 'MOFY900516NL1',
			total: 0,
		},
		xml: `<?xml version="1.0" encoding="utf-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xmlns:pago10="http://www.sat.gob.mx/Pagos"
    xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv33.xsd http://www.sat.gob.mx/Pagos http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos10.xsd"
    Version="3.3" Serie="PA" Folio="3" Fecha="2019-07-14T16:01:39" SubTotal="0" Total="0"
    Moneda="XXX" LugarExpedicion="67100" TipoDeComprobante="P" NoCertificado="30001000000300023701"
    Certificado="${fakeBase64('cer9', 200)}"
    Sello="${sello(9)}">
    <cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
    <cfdi:Receptor Rfc="MOFY900516NL1" Nombre="YADIRA MORALES FIGUEROA" UsoCFDI="P01"/>
    <cfdi:Conceptos>
        <cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0"/>
    </cfdi:Conceptos>
    <cfdi:Complemento>
        <pago10:Pagos Version="1.0">
            <pago10:Pago FechaPago="2019-07-14T16:01:39" FormaDePagoP="28" MonedaP="MXN" Monto="2000.00"
                 NumOperacion="323232" RfcEmisorCtaOrd="BAF950102JP5" CtaOrdenante="1234567890123456"
                 RfcEmisorCtaBen="BBA830831LJ2" CtaBeneficiario="0123456789012345">
                <pago10:DoctoRelacionado IdDocumento="D72829D8-ADCD-4457-935F-B7168A488850" Serie="A" Folio="23245"
                     MonedaDR="USD" TipoCambioDR="0.05" MetodoDePagoDR="PPD" NumParcialidad="4"
                     ImpSaldoAnt="8208.00" ImpPagado="100.00" ImpSaldoInsoluto="8108.00"/>
                <pago10:Impuestos TotalImpuestosTrasladados="275.86">
                    <pago10:Traslados>
                        <pago10:Traslado Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="275.86"/>
                    </pago10:Traslados>
                </pago10:Impuestos>
            </pago10:Pago>
        </pago10:Pagos>
        ${tfd11('D72829D8-ADCD-4457-935F-B7168A480005', '2019-07-14T16:02:00')}
    </cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 payment (Pagos 2.0) with its totals and the taxes of the document and of the payment',
		expect: {
			uuid: '7B6A5F4E-3D2C-4B1A-9F8E-7D6C5B4A0006',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'URE180429TM6',
			total: 0,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:pago20="http://www.sat.gob.mx/Pagos20" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd http://www.sat.gob.mx/Pagos20 http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd" Version="4.0" Serie="P" Folio="310" Fecha="2026-10-20T12:00:00" Sello="${sello(10)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer10', 200)}" SubTotal="0" Moneda="XXX" Total="0" TipoDeComprobante="P" Exportacion="01" LugarExpedicion="42501">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="URE180429TM6" Nombre="UNIVERSIDAD ROBOTICA ESPAÑOLA" DomicilioFiscalReceptor="86991" RegimenFiscalReceptor="601" UsoCFDI="CP01"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0" ObjetoImp="01"/>
	</cfdi:Conceptos>
	<cfdi:Complemento>
		<pago20:Pagos Version="2.0">
			<pago20:Totales TotalTrasladosBaseIVA16="1000.00" TotalTrasladosImpuestoIVA16="160.00" MontoTotalPagos="1160.00"/>
			<pago20:Pago FechaPago="2026-10-20T11:00:00" FormaDePagoP="03" MonedaP="MXN" TipoCambioP="1" Monto="1160.00">
				<pago20:DoctoRelacionado IdDocumento="5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C09" Serie="A" Folio="88" MonedaDR="MXN" EquivalenciaDR="1" NumParcialidad="1" ImpSaldoAnt="1160.00" ImpPagado="1160.00" ImpSaldoInsoluto="0.00" ObjetoImpDR="02">
					<pago20:ImpuestosDR>
						<pago20:TrasladosDR>
							<pago20:TrasladoDR BaseDR="1000.00" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="160.00"/>
						</pago20:TrasladosDR>
					</pago20:ImpuestosDR>
				</pago20:DoctoRelacionado>
				<pago20:ImpuestosP>
					<pago20:TrasladosP>
						<pago20:TrasladoP BaseP="1000.00" ImpuestoP="002" TipoFactorP="Tasa" TasaOCuotaP="0.160000" ImporteP="160.00"/>
					</pago20:TrasladosP>
				</pago20:ImpuestosP>
			</pago20:Pago>
		</pago20:Pagos>
		${tfd11('7B6A5F4E-3D2C-4B1A-9F8E-7D6C5B4A0006')}
	</cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 transfer (traslado) with Carta Porte 3.1: one Mercancia, one trailer, one figure',
		expect: {
			uuid: '9C8B7A6F-5E4D-4C3B-8A9F-0E1D2C3B0007',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'EKU9003173C9',
			total: 0,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:cartaporte31="http://www.sat.gob.mx/CartaPorte31" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd http://www.sat.gob.mx/CartaPorte31 http://www.sat.gob.mx/sitio_internet/cfd/CartaPorte/CartaPorte31.xsd" Version="4.0" Serie="T" Folio="501" Fecha="2026-10-10T07:00:00" Sello="${sello(11)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer11', 200)}" SubTotal="0" Moneda="XXX" Total="0" TipoDeComprobante="T" Exportacion="01" LugarExpedicion="42501">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" DomicilioFiscalReceptor="42501" RegimenFiscalReceptor="601" UsoCFDI="S01"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="31181701" Cantidad="50" ClaveUnidad="H87" Descripcion="Cajas de cartón" ValorUnitario="0" Importe="0" ObjetoImp="01"/>
	</cfdi:Conceptos>
	<cfdi:Complemento>
		<cartaporte31:CartaPorte Version="3.1" IdCCP="CCC5A1C9-E7B3-4F20-8D8A-B6C10E2F4A6B" TranspInternac="No" TotalDistRec="350.5">
			<cartaporte31:Ubicaciones>
				<cartaporte31:Ubicacion TipoUbicacion="Origen" IDUbicacion="OR000001" RFCRemitenteDestinatario="EKU9003173C9" FechaHoraSalidaLlegada="2026-10-10T08:00:00">
					<cartaporte31:Domicilio Calle="Av. Industria" Estado="HID" Pais="MEX" CodigoPostal="42501"/>
				</cartaporte31:Ubicacion>
				<cartaporte31:Ubicacion TipoUbicacion="Destino" IDUbicacion="DE000002" RFCRemitenteDestinatario="EKU9003173C9" FechaHoraSalidaLlegada="2026-10-10T14:30:00" DistanciaRecorrida="350.5">
					<cartaporte31:Domicilio Calle="Calle Norte" Estado="QUE" Pais="MEX" CodigoPostal="76000"/>
				</cartaporte31:Ubicacion>
			</cartaporte31:Ubicaciones>
			<cartaporte31:Mercancias PesoBrutoTotal="1250.000" UnidadPeso="KGM" NumTotalMercancias="1">
				<cartaporte31:Mercancia BienesTransp="31181701" Descripcion="Cajas de cartón" Cantidad="50" ClaveUnidad="H87" PesoEnKg="1250.000" ValorMercancia="87500.00" Moneda="MXN">
					<cartaporte31:CantidadTransporta Cantidad="50" IDOrigen="OR000001" IDDestino="DE000002"/>
				</cartaporte31:Mercancia>
				<cartaporte31:Autotransporte PermSCT="TPAF01" NumPermisoSCT="0X2XTXZ0X5X0X3X2X1X0">
					<cartaporte31:IdentificacionVehicular ConfigVehicular="C2R2" PesoBrutoVehicular="18.5" PlacaVM="501AAA" AnioModeloVM="2020"/>
					<cartaporte31:Seguros AseguraRespCivil="SEGUROS SA" PolizaRespCivil="123456"/>
					<cartaporte31:Remolques>
						<cartaporte31:Remolque SubTipoRem="CTR004" Placa="VL45K98"/>
					</cartaporte31:Remolques>
				</cartaporte31:Autotransporte>
			</cartaporte31:Mercancias>
			<cartaporte31:FiguraTransporte>
				<cartaporte31:TiposFigura TipoFigura="01" RFCFigura="CACX7605101P8" NumLicencia="a234567890" NombreFigura="XOCHILT CASAS CHAVEZ"/>
			</cartaporte31:FiguraTransporte>
		</cartaporte31:CartaPorte>
		${tfd11('9C8B7A6F-5E4D-4C3B-8A9F-0E1D2C3B0007')}
	</cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 freight invoice with Carta Porte 2.0: two Mercancias, a customs document, IVA withheld at 4 %',
		expect: {
			uuid: '9C8B7A6F-5E4D-4C3B-8A9F-0E1D2C3B0008',
			version: '4.0',
			emisor: 'KIJ0906199R1',
			receptor: 'XIA190128J61',
			total: 5600,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:cartaporte20="http://www.sat.gob.mx/CartaPorte20" ${XSI} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd http://www.sat.gob.mx/CartaPorte20 http://www.sat.gob.mx/sitio_internet/cfd/CartaPorte/CartaPorte20.xsd" Version="4.0" Serie="F" Folio="9001" Fecha="2023-05-10T07:00:00" Sello="${sello(12)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer12', 200)}" SubTotal="5000.00" Moneda="MXN" Total="5600.00" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" FormaPago="03" LugarExpedicion="22000">
	<cfdi:Emisor Rfc="KIJ0906199R1" Nombre="TRANSPORTES KIJ" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="XIA190128J61" Nombre="XENON INDUSTRIAL ARTICLES" DomicilioFiscalReceptor="76343" RegimenFiscalReceptor="601" UsoCFDI="G03"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="78101800" Cantidad="1" ClaveUnidad="E48" Descripcion="Flete" ValorUnitario="5000.00" Importe="5000.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="5000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="800.00"/>
				</cfdi:Traslados>
				<cfdi:Retenciones>
					<cfdi:Retencion Base="5000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.040000" Importe="200.00"/>
				</cfdi:Retenciones>
			</cfdi:Impuestos>
		</cfdi:Concepto>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosRetenidos="200.00" TotalImpuestosTrasladados="800.00">
		<cfdi:Retenciones>
			<cfdi:Retencion Impuesto="002" Importe="200.00"/>
		</cfdi:Retenciones>
		<cfdi:Traslados>
			<cfdi:Traslado Base="5000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="800.00"/>
		</cfdi:Traslados>
	</cfdi:Impuestos>
	<cfdi:Complemento>
		<cartaporte20:CartaPorte Version="2.0" TranspInternac="No" TotalDistRec="120">
			<cartaporte20:Ubicaciones>
				<cartaporte20:Ubicacion TipoUbicacion="Origen" IDUbicacion="OR101010" RFCRemitenteDestinatario="XIA190128J61" FechaHoraSalidaLlegada="2023-05-10T08:00:00">
					<cartaporte20:Domicilio Estado="BCN" Pais="MEX" CodigoPostal="22000"/>
				</cartaporte20:Ubicacion>
				<cartaporte20:Ubicacion TipoUbicacion="Destino" IDUbicacion="DE202020" RFCRemitenteDestinatario="XIA190128J61" FechaHoraSalidaLlegada="2023-05-10T11:00:00" DistanciaRecorrida="120">
					<cartaporte20:Domicilio Estado="BCN" Pais="MEX" CodigoPostal="21000"/>
				</cartaporte20:Ubicacion>
			</cartaporte20:Ubicaciones>
			<cartaporte20:Mercancias PesoBrutoTotal="300.5" UnidadPeso="KGM" NumTotalMercancias="2">
				<cartaporte20:Mercancia BienesTransp="43211503" Descripcion="Computadoras" Cantidad="10" ClaveUnidad="H87" PesoEnKg="200.5" ValorMercancia="150000.00" Moneda="MXN">
					<cartaporte20:Pedimentos Pedimento="23  47  3807  3001234"/>
				</cartaporte20:Mercancia>
				<cartaporte20:Mercancia BienesTransp="43211706" Descripcion="Teclados" Cantidad="100" ClaveUnidad="H87" PesoEnKg="100" ValorMercancia="20000" Moneda="MXN"/>
				<cartaporte20:Autotransporte PermSCT="TPAF01" NumPermisoSCT="0X2XTXZ0X5X0X3X2X1X0">
					<cartaporte20:IdentificacionVehicular ConfigVehicular="C2" PlacaVM="501AAA" AnioModeloVM="2019"/>
					<cartaporte20:Seguros AseguraRespCivil="SEGUROS SA" PolizaRespCivil="654321"/>
				</cartaporte20:Autotransporte>
			</cartaporte20:Mercancias>
			<cartaporte20:FiguraTransporte>
				<cartaporte20:TiposFigura TipoFigura="01" RFCFigura="CACX7605101P8" NumLicencia="a234567890" NombreFigura="XOCHILT CASAS CHAVEZ"/>
			</cartaporte20:FiguraTransporte>
		</cartaporte20:CartaPorte>
		${tfd11('9C8B7A6F-5E4D-4C3B-8A9F-0E1D2C3B0008', '2023-05-10T07:01:00')}
	</cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 3.3 with two Complemento, each with a stamp of another UUID, and a complement the node does not know',
		expect: {
			uuid: '1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0009',
			version: '3.3',
			emisor: 'EKU9003173C9',
			receptor: 'URE180429TM6',
			total: 116,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" xmlns:leyendasFisc="http://www.sat.gob.mx/leyendasFiscales" Version="3.3" Fecha="2020-02-02T10:00:00" Sello="${sello(13)}" NoCertificado="30001000000300023708" Certificado="${fakeBase64('cer13', 200)}" SubTotal="100.00" Moneda="MXN" Total="116.00" TipoDeComprobante="I" MetodoPago="PUE" FormaPago="01" LugarExpedicion="42501">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="URE180429TM6" Nombre="UNIVERSIDAD ROBOTICA ESPAÑOLA" UsoCFDI="G03"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="86121700" Cantidad="1" ClaveUnidad="E48" Descripcion="Colegiatura" ValorUnitario="100.00" Importe="100.00">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="100.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
			<cfdi:ComplementoConcepto>
				<iedu:instEducativas xmlns:iedu="http://www.sat.gob.mx/iedu" version="1.0" nombreAlumno="ALUMNO UNO" CURP="FUNK671228MJCNLR00" nivelEducativo="Primaria" autRVOE="1234567"/>
			</cfdi:ComplementoConcepto>
		</cfdi:Concepto>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosTrasladados="16.00">
		<cfdi:Traslados>
			<cfdi:Traslado Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/>
		</cfdi:Traslados>
	</cfdi:Impuestos>
	<cfdi:Complemento>
		<leyendasFisc:LeyendasFiscales version="1.0">
			<leyendasFisc:Leyenda disposicionFiscal="LISR" norma="Art. 151" textoLeyenda="Pago de colegiatura deducible"/>
		</leyendasFisc:LeyendasFiscales>
		${tfd11('1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0009', '2020-02-02T10:01:00')}
	</cfdi:Complemento>
	<cfdi:Complemento>
		${tfd11('1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0010', '2020-02-02T10:05:00')}
	</cfdi:Complemento>
</cfdi:Comprobante>
`,
	},
	{
		name: 'CFDI 4.0 with two stamps in one Complemento, an unknown complement with two entries, and an addenda',
		expect: {
			uuid: '1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0011',
			version: '4.0',
			emisor: 'EKU9003173C9',
			receptor: 'URE180429TM6',
			total: 116,
		},
		xml: `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Fecha="2026-02-02T10:00:00" Sello="${sello(14)}" NoCertificado="30001000000500003416" Certificado="${fakeBase64('cer14', 200)}" SubTotal="100.00" Moneda="MXN" Total="116.00" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" FormaPago="01" LugarExpedicion="42501">
	<cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
	<cfdi:Receptor Rfc="URE180429TM6" Nombre="UNIVERSIDAD ROBOTICA ESPAÑOLA" DomicilioFiscalReceptor="86991" RegimenFiscalReceptor="601" UsoCFDI="G03"/>
	<cfdi:Conceptos>
		<cfdi:Concepto ClaveProdServ="86121700" Cantidad="1" ClaveUnidad="E48" Descripcion="Colegiatura" ValorUnitario="100.00" Importe="100.00" ObjetoImp="02">
			<cfdi:Impuestos>
				<cfdi:Traslados>
					<cfdi:Traslado Base="100.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/>
				</cfdi:Traslados>
			</cfdi:Impuestos>
			<cfdi:ComplementoConcepto>
				<iedu:instEducativas xmlns:iedu="http://www.sat.gob.mx/iedu" version="1.0" nombreAlumno="ALUMNO DOS" CURP="FUNK671228MJCNLR00" nivelEducativo="Secundaria" autRVOE="7654321"/>
			</cfdi:ComplementoConcepto>
		</cfdi:Concepto>
	</cfdi:Conceptos>
	<cfdi:Impuestos TotalImpuestosTrasladados="16.00">
		<cfdi:Traslados>
			<cfdi:Traslado Base="100.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/>
		</cfdi:Traslados>
	</cfdi:Impuestos>
	<cfdi:Complemento>
		${tfd11('1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0011', '2026-02-02T10:01:00')}
		<leyendasFisc:LeyendasFiscales xmlns:leyendasFisc="http://www.sat.gob.mx/leyendasFiscales" version="1.0">
			<leyendasFisc:Leyenda disposicionFiscal="LISR" norma="Art. 151" textoLeyenda="Pago de colegiatura deducible"/>
			<leyendasFisc:Leyenda disposicionFiscal="RESDERAUTH" textoLeyenda="Obra protegida"/>
		</leyendasFisc:LeyendasFiscales>
		${tfd11('1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0012', '2026-02-02T10:04:00')}
	</cfdi:Complemento>
	<cfdi:Addenda>
		<pedido numero="PO-123"><linea sku="A1" cantidad="1"/></pedido>
	</cfdi:Addenda>
</cfdi:Comprobante>
`,
	},
];
