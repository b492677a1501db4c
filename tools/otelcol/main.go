// Command otelcol is a minimal OpenTelemetry Collector for mcptrail's end-to-end tests: the OTLP
// receiver (gRPC and HTTP, protobuf and JSON), the OTLP JSON file receiver (which reads what
// `mcptrail export -T otlp` writes), and the file and debug exporters, nothing else, built from
// the collector's own modules at one release (see go.mod: v0.158.0, the newest release whose
// otlpjsonfilereceiver the Go module proxy serves). It is not part of
// mcptrail: it lives in its own module so that its dependencies never reach mcptrail's go.mod,
// and .ci/run builds it for internal/e2e/sdk, which finds it at $MCPTRAIL_OTELCOL (testbin.Collector).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"
	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/otlpjsonfilereceiver"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry"
	"go.uber.org/zap"
)

func main() {
	set := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol", Description: "mcptrail's test collector", Version: "test"},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()},
				DefaultScheme:     "file", // the only provider built in
			},
		},
	}
	if err := otelcol.NewCommand(set).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "otelcol:", err)
		os.Exit(1)
	}
}

// components are the only factories the tests need.
func components() (otelcol.Factories, error) {
	var f otelcol.Factories
	var err error
	if f.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory(), otlpjsonfilereceiver.NewFactory()); err != nil {
		return f, err
	}
	if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](fileexporter.NewFactory(), debugexporter.NewFactory()); err != nil {
		return f, err
	}
	f.Telemetry = telemetryFactory()
	return f, nil
}

// telemetryFactory is the collector's own telemetry: its logs on stderr
// and nothing else. The stock otelconftelemetry would bring cloud resource
// detectors (an AWS SDK among them) into the build for nothing.
func telemetryFactory() telemetry.Factory {
	return telemetry.NewFactory(func() component.Config { return &struct{}{} },
		telemetry.WithCreateLogger(func(context.Context, telemetry.LoggerSettings, component.Config) (*zap.Logger, component.ShutdownFunc, error) {
			l, err := zap.NewDevelopment()
			return l, nil, err
		}))
}
