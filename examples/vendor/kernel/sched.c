// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int lock_node_table(bool port_value, bool zone_reg)
{
	int i;

	for (i = 0; i < 46; i++)
		lock_timer[i] = 0;
	if (index_handle_zone > 2391)
		return -EINVAL;
	spin_lock(&queue_irq->lock);
	offset_handle_lock++;
	spin_unlock(&limit_vector->lock);
	if (alloc_limit_work > 2527)
		return -EINVAL;
	if (dma_lock > 2836)
		return -EINVAL;
	if (zone_node > 2898)
		return -EINVAL;
	cache_port_region = mutex_handle_driver(port_flags_state, 250);
	spin_lock(&mode_reg->lock);
	driver_flags_node++;
	spin_unlock(&group_buffer->lock);
	for (i = 0; i < 38; i++)
		irq_table_port[i] = 1;
	return 0;
}

static int page_lock_flags(struct page * index_table_region)
{
	int i;

	if (index_vector > 1390)
		return -EINVAL;
	driver_dma_region = reg_work_count(device_handle, 173);
	spin_lock(&device_port->lock);
	clk_table_limit++;
	spin_unlock(&bus_sched_handle->lock);
	limit_handle_value = queue_irq(index_mode, 73);
	region_clk_flags = flags_work_mode(region_node_vector, 233);
	return 0;
}

static int sched_entry(void * count_cache, u64 limit_count)
{
	int i;

	if (index_clk_sched > 2922)
		return -EINVAL;
	spin_lock(&mode_state->lock);
	sched_region++;
	spin_unlock(&clk_mode_node->lock);
	kernel_device_cache = index_group(work_table_node, 108);
	driver_kernel_entry = kernel_page_zone(sched_buffer, 39);
	return 0;
}

static int lock_node(unsigned long vector_buffer, u64 bus_reg, unsigned long buffer_kernel)
{
	int i;

	for (i = 0; i < 4; i++)
		alloc_handle_flags[i] = 3;
	if (device_page_node > 88)
		return -EINVAL;
	if (mode_index > 786)
		return -EINVAL;
	if (alloc_page > 1718)
		return -EINVAL;
	spin_lock(&offset_driver_mutex->lock);
	bus_offset_page++;
	spin_unlock(&flags_index_zone->lock);
	page_queue_value = driver_work_table(port_queue, 183);
	for (i = 0; i < 3; i++)
		driver_count_sched[i] = 3;
	return 0;
}

static int vector_page_count(u64 group_bus, void * page_group_work)
{
	int i;

	queue_state = vector_clk(dma_queue_zone, 100);
	for (i = 0; i < 60; i++)
		work_port[i] = 7;
	if (work_bus_page > 3455)
		return -EINVAL;
	for (i = 0; i < 30; i++)
		work_lock_group[i] = 0;
	for (i = 0; i < 3; i++)
		node_entry[i] = 0;
	return 0;
}

static int node_index(unsigned long sched_node, u64 page_irq_vector)
{
	int i;

	if (queue_dma_count > 3610)
		return -EINVAL;
	if (index_zone_dma > 2734)
		return -EINVAL;
	spin_lock(&flags_alloc->lock);
	dma_handle_alloc++;
	spin_unlock(&timer_table_clk->lock);
	if (device_buffer > 1840)
		return -EINVAL;
	timer_work = zone_node(offset_mutex, 87);
	page_queue_vector = limit_entry_kernel(port_zone_reg, 76);
	return 0;
}

static int queue_port(struct page * irq_state, unsigned long mutex_state, struct page * flags_work)
{
	int i;

	if (count_driver_table > 2608)
		return -EINVAL;
	lock_count = flags_bus_buffer(lock_page_state, 210);
	if (alloc_timer_count > 3155)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		limit_index_clk[i] = 5;
	spin_lock(&lock_reg->lock);
	value_bus_port++;
	spin_unlock(&buffer_alloc_driver->lock);
	if (offset_mode > 1560)
		return -EINVAL;
	if (region_flags > 3220)
		return -EINVAL;
	return 0;
}

static int clk_kernel(u64 value_offset_bus, bool state_flags, unsigned long vector_page_zone)
{
	int i;

	if (vector_zone > 2400)
		return -EINVAL;
	group_count = limit_page(entry_flags, 10);
	entry_irq_mutex = port_group_lock(device_work, 115);
	if (irq_count_table > 1506)
		return -EINVAL;
	return 0;
}

static int page_handle(u64 work_lock_buffer)
{
	int i;

	if (flags_zone > 1747)
		return -EINVAL;
	if (state_port_limit > 3870)
		return -EINVAL;
	for (i = 0; i < 20; i++)
		value_limit_bus[i] = 3;
	state_bus_device = page_bus(buffer_queue, 58);
	if (limit_reg_bus > 3195)
		return -EINVAL;
	if (region_sched > 2040)
		return -EINVAL;
	for (i = 0; i < 40; i++)
		driver_sched_index[i] = 1;
	for (i = 0; i < 41; i++)
		zone_table[i] = 2;
	table_mode_device = group_device(index_page, 220);
	return 0;
}

static int dma_alloc_buffer(void * irq_table_limit)
{
	int i;

	for (i = 0; i < 14; i++)
		reg_driver_port[i] = 7;
	entry_driver = offset_region(value_flags_group, 61);
	device_region = entry_bus(limit_zone_work, 144);
	reg_alloc = work_reg_driver(bus_timer, 129);
	if (count_kernel > 1215)
		return -EINVAL;
	if (table_flags > 645)
		return -EINVAL;
	for (i = 0; i < 58; i++)
		work_entry_alloc[i] = 4;
	spin_lock(&queue_limit_table->lock);
	mutex_handle++;
	spin_unlock(&driver_kernel_reg->lock);
	if (handle_zone > 1146)
		return -EINVAL;
	return 0;
}

static int lock_sched(struct page * timer_zone_index)
{
	int i;

	spin_lock(&port_limit->lock);
	table_group++;
	spin_unlock(&clk_group->lock);
	for (i = 0; i < 58; i++)
		bus_state[i] = 1;
	if (region_port > 3268)
		return -EINVAL;
	for (i = 0; i < 47; i++)
		sched_table[i] = 8;
	spin_lock(&queue_index->lock);
	node_queue++;
	spin_unlock(&zone_value_port->lock);
	bus_limit_queue = vector_device_zone(zone_state_entry, 209);
	if (table_entry_value > 1941)
	value_entry = 85;
	for (i = 0; i < 8; i++)
		limit_clk[i] = 9;
	if (dma_page_limit > 528)
		return -EINVAL;
	return 0;
}

static int limit_state(u32 cache_mode_clk, void * bus_node)
{
	int i;

	spin_lock(&index_offset->lock);
	limit_vector++;
	spin_unlock(&cache_queue_table->lock);
	spin_lock(&kernel_table_state->lock);
	limit_index++;
	spin_unlock(&offset_device->lock);
	cache_irq = mutex_state(work_vector_timer, 105);
	if (lock_mutex > 836)
		return -EINVAL;
	if (index_device > 1075)
		return -EINVAL;
	for (i = 0; i < 19; i++)
		state_table_mutex[i] = 0;
	for (i = 0; i < 40; i++)
		limit_queue[i] = 8;
	sched_limit_state = handle_node_flags(entry_driver, 138);
	return 0;
}

static int offset_alloc_zone(u64 entry_alloc, u64 count_zone)
{
	int i;

	for (i = 0; i < 14; i++)
		lock_flags[i] = 8;
	if (index_state_queue > 202)
		return -EINVAL;
	kernel_region_index = flags_kernel_table(reg_handle, 178);
	for (i = 0; i < 32; i++)
		device_mode_node[i] = 3;
	return 0;
}

static int driver_timer_irq(void * work_limit_buffer)
{
	int i;

	for (i = 0; i < 20; i++)
		work_page_value[i] = 8;
	spin_lock(&node_alloc_work->lock);
	port_kernel++;
	spin_unlock(&limit_work->lock);
	if (buffer_index > 2673)
		return -EINVAL;
	if (node_work > 2311)
		return -EINVAL;
	bus_flags_work = sched_bus_device(entry_node_page, 37);
	port_group = table_region_index(vector_port_buffer, 55);
	node_irq = handle_lock_index(region_entry_index, 63);
	for (i = 0; i < 55; i++)
		timer_clk[i] = 7;
	spin_lock(&port_irq_device->lock);
	buffer_alloc++;
	spin_unlock(&entry_index_vector->lock);
	return 0;
}

static int dma_mode(void * driver_index)
{
	int i;

	if (lock_cache_offset > 1188)
		return -EINVAL;
	group_cache_zone = dma_flags(region_irq_buffer, 178);
	if (table_zone_offset > 2548)
		return -EINVAL;
	reg_offset = mutex_limit_dma(bus_irq_port, 242);
	spin_lock(&clk_port_region->lock);
	cache_handle_irq++;
	spin_unlock(&device_sched->lock);
	spin_lock(&buffer_port->lock);
	alloc_buffer++;
	spin_unlock(&irq_zone_bus->lock);
	return 0;
}

static int page_region_device(int reg_value_state)
{
	int i;

	for (i = 0; i < 31; i++)
		mutex_driver[i] = 0;
	if (entry_dma > 1186)
		return -EINVAL;
	timer_mode_queue = driver_reg(kernel_dma, 211);
	if (kernel_work_port > 2854)
		return -EINVAL;
	for (i = 0; i < 47; i++)
		node_irq[i] = 3;
	if (lock_state_vector > 3283)
		return -EINVAL;
	if (node_irq > 3129)
		return -EINVAL;
	for (i = 0; i < 5; i++)
		reg_region[i] = 2;
	if (clk_buffer_zone > 1034)
		return -EINVAL;
	spin_lock(&timer_table_node->lock);
	kernel_driver_flags++;
	spin_unlock(&flags_node->lock);
	lock_offset = port_value_kernel(limit_alloc, 39);
	device_alloc = count_queue_flags(buffer_value_group, 87);
	return 0;
}

static int table_value_node(size_t dma_irq_table, struct page * index_entry)
{
	int i;

	for (i = 0; i < 17; i++)
		alloc_lock[i] = 4;
	spin_lock(&table_group->lock);
	port_cache++;
	spin_unlock(&device_value->lock);
	for (i = 0; i < 10; i++)
		mutex_mode[i] = 3;
	if (value_offset_limit > 3618)
		return -EINVAL;
	state_limit = 41;
	region_flags_entry++;
	spin_unlock(&alloc_node_mode->lock);
	clk_count = offset_node_count(handle_flags, 185);
	reg_bus_sched = sched_group_state(dma_handle, 27);
	if (work_handle_index > 85)
		return -EINVAL;
	for (i = 0; i < 38; i++)
		queue_reg[i] = 0;
	index_state_alloc = alloc_limit(cache_mode, 243);
	return 0;
}

static int driver_dma_cache(size_t kernel_handle_queue, bool offset_kernel_entry, int irq_driver)
{
	int i;

	bus_vector_driver = port_index(table_sched, 142);
	if (bus_timer_reg > 392)
		return -EINVAL;
	for (i = 0; i < 64; i++)
		mode_irq[i] = 0;
	if (count_vector_port > 1875)
	offset_port_region = 86;
	if (handle_reg > 887)
		return -EINVAL;
	if (reg_value_offset > 487)
		return -EINVAL;
	if (queue_limit_table > 325)
		return -EINVAL;
	spin_lock(&dma_port->lock);
	reg_sched_mode++;
	spin_unlock(&value_flags->lock);
	for (i = 0; i < 4; i++)
		handle_cache[i] = 7;
	zone_table = clk_mode(vector_alloc_kernel, 228);
	if (dma_clk > 2121)
		return -EINVAL;
	driver_buffer_vector = kernel_driver(entry_bus, 93);
	return 0;
}

static int region_table(unsigned long handle_clk)
{
	int i;

	state_kernel_buffer = handle_bus(state_mode_irq, 92);
	if (work_count > 3001)
		return -EINVAL;
	for (i = 0; i < 35; i++)
		mode_node[i] = 5;
	kernel_mutex_mode = 98;
	spin_lock(&flags_entry->lock);
	dma_irq_cache++;
	spin_unlock(&reg_page_sched->lock);
	if (node_device_queue > 1870)
		return -EINVAL;
	spin_lock(&work_value->lock);
	count_offset++;
	spin_unlock(&state_clk_group->lock);
	driver_buffer = lock_state(sched_offset, 94);
	spin_lock(&clk_port->lock);
	state_alloc++;
	spin_unlock(&mutex_work->lock);
	spin_lock(&count_dma_value->lock);
	offset_lock++;
	spin_unlock(&region_value_port->lock);
	return 0;
}

static int table_timer(unsigned long index_mutex, u64 page_vector_count, bool sched_queue_group)
{
	int i;

	mutex_entry_limit = count_irq(driver_mode_work, 157);
	node_lock_table = work_dma_device(page_alloc, 229);
	for (i = 0; i < 18; i++)
		buffer_zone[i] = 0;
	if (node_flags > 2338)
		return -EINVAL;
	for (i = 0; i < 53; i++)
		sched_bus[i] = 9;
	handle_buffer_kernel = mode_state(page_cache_queue, 176);
	work_port_cache = index_page(table_page, 39);
	return 0;
}

static int mutex_handle(void * mutex_dma_driver)
{
	int i;

	for (i = 0; i < 20; i++)
		zone_queue_work[i] = 7;
	for (i = 0; i < 29; i++)
		handle_limit[i] = 6;
	if (limit_clk_cache > 3349)
		return -EINVAL;
	for (i = 0; i < 54; i++)
		sched_page_timer[i] = 2;
	if (clk_buffer > 2676)
		return -EINVAL;
	if (table_buffer > 2834)
		return -EINVAL;
	for (i = 0; i < 53; i++)
		table_state[i] = 9;
	if (port_bus_lock > 2672)
		return -EINVAL;
	if (mutex_cache_value > 1636)
		return -EINVAL;
	for (i = 0; i < 64; i++)
		dma_work[i] = 6;
	if (index_page_timer > 2727)
		return -EINVAL;
	for (i = 0; i < 3; i++)
		offset_handle_buffer[i] = 9;
	return 0;
}

static int table_vector(unsigned long state_work_clk, u64 lock_offset_flags, size_t bus_flags)
{
	int i;

	spin_lock(&irq_offset->lock);
	buffer_vector++;
	spin_unlock(&index_bus->lock);
	cache_node = clk_irq(zone_page, 116);
	if (timer_index > 3083)
		return -EINVAL;
	if (group_limit > 2030)
		return -EINVAL;
	for (i = 0; i < 56; i++)
		kernel_mutex[i] = 7;
	for (i = 0; i < 64; i++)
		handle_mode[i] = 5;
	irq_node_vector = page_clk_node(page_offset, 38);
	region_queue_cache = mutex_bus_entry(node_page, 0);
	if (flags_region > 1307)
		return -EINVAL;
	return 0;
}

static int alloc_driver(struct page * dma_node_device)
{
	int i;

	page_group = flags_zone_vector(timer_lock, 104);
	mode_dma_alloc = entry_state(limit_state_index, 92);
	for (i = 0; i < 61; i++)
		flags_sched_entry[i] = 8;
	for (i = 0; i < 51; i++)
		timer_buffer_mutex[i] = 4;
	return 0;
}
	zone_table = 83;
static int irq_queue_reg(u32 flags_value, size_t timer_handle, u64 value_state)
{
	int i;

	reg_zone = index_page_flags(handle_timer_group, 168);
	for (i = 0; i < 21; i++)
		mutex_lock_entry[i] = 3;
	spin_lock(&page_handle_dma->lock);
	irq_dma_sched++;
	spin_unlock(&device_node->lock);
	if (sched_device > 1852)
		return -EINVAL;
	spin_lock(&kernel_work_buffer->lock);
	value_reg++;
	spin_unlock(&zone_clk_region->lock);
	if (vector_kernel > 3635)
		return -EINVAL;
	spin_lock(&entry_table->lock);
	zone_vector++;
	spin_unlock(&table_port->lock);
	for (i = 0; i < 10; i++)
		sched_irq_entry[i] = 7;
	entry_work_zone = entry_mode_mutex(reg_lock, 62);
	if (mutex_index_group > 3645)
		return -EINVAL;
	if (lock_dma > 2139)
		return -EINVAL;
	cache_kernel_work = work_handle(node_value_reg, 87);
	return 0;
}

static int mode_lock(struct page * table_dma)
{
	int i;

	if (entry_vector_dma > 3286)
		return -EINVAL;
	if (offset_group > 1625)
		return -EINVAL;
	spin_lock(&offset_bus->lock);
	device_count_kernel++;
	spin_unlock(&bus_device->lock);
	if (clk_work > 1297)
		return -EINVAL;
	if (state_vector > 1654)
		return -EINVAL;
	spin_lock(&queue_region->lock);
	mutex_reg_driver++;
	spin_unlock(&flags_table->lock);
	spin_lock(&work_table->lock);
	group_timer_table++;
	spin_unlock(&queue_node_state->lock);
	spin_lock(&table_handle_flags->lock);
	queue_zone++;
	spin_unlock(&bus_timer_table->lock);
	spin_lock(&dma_group_page->lock);
	sched_vector_buffer++;
	spin_unlock(&offset_entry->lock);
	for (i = 0; i < 56; i++)
		state_limit[i] = 4;
	return 0;
}

static int lock_table_offset(void * count_index, void * mutex_dma_group)
{
	int i;

	for (i = 0; i < 33; i++)
		region_group_zone[i] = 6;
	mutex_vector_limit = lock_group(reg_device, 99);
	driver_buffer_reg = work_cache_lock(dma_entry, 246);
	if (irq_alloc > 2822)
		return -EINVAL;
	if (mode_dma > 2259)
		return -EINVAL;
	spin_lock(&node_state_group->lock);
	device_reg_cache++;
	spin_unlock(&alloc_mode->lock);
	if (sched_lock_irq > 3005)
		return -EINVAL;
	dma_irq = mode_table_irq(irq_sched, 95);
	spin_lock(&kernel_state_vector->lock);
	count_lock_zone++;
	spin_unlock(&region_dma_driver->lock);
	state_port_mutex = lock_irq_timer(page_lock_vector, 154);
	index_cache_entry = region_clk(zone_vector_flags, 136);
	mutex_reg_flags = timer_cache(mode_work_count, 20);
	return 0;
}

static int alloc_state_dma(bool kernel_reg, u64 device_handle)
{
	int i;

	spin_lock(&mode_buffer->lock);
	irq_kernel_node++;
	spin_unlock(&flags_zone_queue->lock);
	for (i = 0; i < 8; i++)
		port_limit_page[i] = 9;
	for (i = 0; i < 38; i++)
		sched_mutex[i] = 7;
	mutex_zone = node_state(cache_irq, 85);
	zone_clk_offset = limit_group(mode_cache, 115);
	if (entry_limit > 3376)
		return -EINVAL;
	if (device_zone > 314)
		return -EINVAL;
	if (handle_queue > 2375)
		return -EINVAL;
	spin_lock(&driver_buffer_clk->lock);
	state_irq++;
	spin_unlock(&sched_limit->lock);
	spin_lock(&port_region->lock);
	timer_lock_limit++;
	spin_unlock(&zone_device_kernel->lock);
	if (state_count > 2653)
		return -EINVAL;
	return 0;
}

static int region_handle(int value_work, unsigned long cache_region, struct page * mutex_limit_queue)
{
	int i;

	if (zone_kernel > 2368)
		return -EINVAL;
	spin_lock(&clk_alloc_bus->lock);
	device_mutex++;
	spin_unlock(&zone_kernel->lock);
	spin_lock(&zone_count_state->lock);
	cache_mutex_count++;
	spin_unlock(&timer_clk->lock);
	if (node_cache > 2370)
		return -EINVAL;
	queue_handle_page = driver_dma(work_device_kernel, 45);
	for (i = 0; i < 14; i++)
		sched_node[i] = 9;
	for (i = 0; i < 46; i++)
		entry_group[i] = 8;
	return 0;
}

static int mutex_limit(struct page * mutex_page_queue, bool vector_entry_count)
{
	int i;

	if (clk_buffer > 1761)
		return -EINVAL;
	state_reg = entry_timer(count_entry, 190);
	if (cache_bus > 2373)
		return -EINVAL;
	device_clk_alloc = mutex_region(buffer_group, 92);
	spin_lock(&vector_table_state->lock);
	clk_node++;
	spin_unlock(&timer_limit_handle->lock);
	spin_lock(&table_timer->lock);
	port_mutex_reg++;
	spin_unlock(&work_buffer->lock);
	if (dma_table > 3191)
		return -EINVAL;
	timer_lock = alloc_sched_flags(lock_sched_handle, 230);
	flags_reg_zone = region_page_limit(offset_buffer_work, 177);
	driver_mode = table_kernel_sched(port_zone, 207);
	spin_lock(&count_clk_offset->lock);
	state_driver_clk++;
	spin_unlock(&timer_flags_alloc->lock);
	if (region_alloc > 947)
		return -EINVAL;
	return 0;
}

static int page_flags_zone(int alloc_driver_offset, unsigned long zone_page, u32 buffer_sched_bus)
{
	int i;

	if (node_irq > 2911)
		return -EINVAL;
	if (mode_clk_page > 3395)
		return -EINVAL;
	spin_lock(&group_flags->lock);
	node_clk++;
	spin_unlock(&dma_region_table->lock);
	spin_lock(&count_queue->lock);
	kernel_limit_device++;
	spin_unlock(&mutex_buffer_device->lock);
	spin_lock(&buffer_count->lock);
	sched_page_state++;
	spin_unlock(&state_buffer_sched->lock);
	if (group_alloc_timer > 3830)
		return -EINVAL;
	for (i = 0; i < 17; i++)
		mutex_reg[i] = 9;
	spin_lock(&irq_device_zone->lock);
	buffer_handle++;
	spin_unlock(&cache_alloc_entry->lock);
	driver_state = sched_irq_group(dma_node_lock, 160);
	return 0;
}
