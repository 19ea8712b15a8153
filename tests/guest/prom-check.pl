#!/usr/bin/perl
# prom-check.pl FILE: FILE is valid Prometheus text exposition (format
# 0.0.4, what node_exporter's textfile collector parses): HELP and TYPE
# lines before their family's samples, metric and label names as the
# format allows, label values with only \\, \" and \n escaped, numeric
# values, no series twice.  Prints "ok N series" or each error; exit 1 on
# any.  Independent of the tool's own printer, on purpose.
use strict;
use warnings;

my $file = shift or die "usage: prom-check.pl FILE\n";
open(my $fh, '<', $file) or die "cannot read $file: $!\n";
my $name_re = qr/[a-zA-Z_:][a-zA-Z0-9_:]*/;
my $label_re = qr/[a-zA-Z_][a-zA-Z0-9_]*/;
my $value_re = qr/(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?Inf|NaN)/;
my (%type, %help, %seen, %sampled, @errors);
my $n = 0;
while (my $line = <$fh>) {
	chomp $line;
	my $where = "$file:$.";
	next if $line eq '';
	if ($line =~ /^# HELP ($name_re) (.*)$/) {
		push @errors, "$where: HELP for $1 twice" if $help{$1}++;
		push @errors, "$where: HELP for $1 after its samples" if $sampled{$1};
		next;
	}
	if ($line =~ /^# TYPE ($name_re) (counter|gauge|histogram|summary|untyped)$/) {
		push @errors, "$where: TYPE for $1 twice" if $type{$1}++;
		push @errors, "$where: TYPE for $1 after its samples" if $sampled{$1};
		next;
	}
	if ($line =~ /^# (HELP|TYPE)/) {
		push @errors, "$where: malformed $1 line: $line";
		next;
	}
	next if $line =~ /^#/;
	unless ($line =~ /^($name_re)(\{(.*)\})? ($value_re)( -?\d+)?$/) {
		push @errors, "$where: not a sample: $line";
		next;
	}
	my ($name, $labels) = ($1, $3 // '');
	my @pairs;
	my $rest = $labels;
	while ($rest ne '') {
		unless ($rest =~ s/^($label_re)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)//) {
			push @errors, "$where: bad labels: {$labels}";
			last;
		}
		push @pairs, "$1=$2";
	}
	my %dup;
	$dup{(split /=/, $_)[0]}++ and push @errors, "$where: label twice in {$labels}" for @pairs;
	my $key = $name . '{' . join(',', sort @pairs) . '}';
	push @errors, "$where: series twice: $key" if $seen{$key}++;
	(my $family = $name) =~ s/_(bucket|sum|count)$// unless $type{$name};
	push @errors, "$where: $name has no TYPE line before it" unless $type{$family // $name};
	$sampled{$family // $name} = 1;
	$n++;
}
if (@errors) {
	print "$_\n" for @errors;
	exit 1;
}
print "ok $n series\n";
