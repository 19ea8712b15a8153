#!/usr/bin/perl
# fuzz-ctl.pl FILE COUNT SEED: COUNT writes, each one write(2) of a
# generated command that the grammar (include/memcg_softlimit/control.h)
# must refuse; prints "accepted N" and the first accepted input, if any.
use strict;
use warnings;
my ($file, $count, $seed) = @ARGV;
srand($seed);
open(my $fh, '>', $file) or die "open $file: $!";
sub rstr {
	my ($n, @alphabet) = @_;
	return join('', map { $alphabet[int(rand(@alphabet))] } 1 .. $n);
}
my @bytes = map { chr } 0 .. 255;
my @printable = map { chr } 32 .. 126;
my ($accepted, $first) = (0, '');
for my $i (1 .. $count) {
	my $kind = $i % 9;
	my $s;
	if ($kind == 0) {	# random bytes, not starting with a verb's letter
		$s = rstr(1 + int(rand(300)), @bytes);
		substr($s, 0, 1) = 'x';
	} elsif ($kind == 1) {	# path without a leading '/'
		$s = 'set ' . rstr(1 + int(rand(40)), grep { $_ ne '/' } @printable) . ' 1G';
		substr($s, 4, 1) = 'a';
	} elsif ($kind == 2) {	# malformed sizes on a real cgroup
		$s = 'set /fz ' . rstr(int(rand(12)), '0' .. '9', qw(K M G T k m g t . - + x)) . 'x';
	} elsif ($kind == 3) {	# dot components
		$s = 'unset /fz/' . ('..', '.')[int(rand(2))] . (rand() < 0.5 ? '/fz' : '');
	} elsif ($kind == 4) {	# no such cgroup
		$s = "set /fz/no-such-$i " . int(rand(1 << 30));
	} elsif ($kind == 5) {	# oversized
		$s = 'set /' . ('a' x (4200 + int(rand(2000)))) . ' 1G';
	} elsif ($kind == 6) {	# the root
		$s = ('set / 1G', 'unset /', 'set / max')[int(rand(3))];
	} elsif ($kind == 7) {	# two commands in one write
		$s = "set /fz 1G\nset /fz 2G";
	} else {		# control characters and non-UTF-8 in the path
		$s = 'set /fz' . rstr(1 + int(rand(8)), map { chr } 1 .. 31, 127) . ' 1G';
	}
	my $n = syswrite($fh, $s);
	if (defined $n) {
		$accepted++;
		$first = $s if $accepted == 1;
	}
}
print "accepted $accepted\n";
print "first accepted: $first\n" if $accepted;
